import { createElement, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { PlinthDashboard, type PlinthDashboardHandle } from '../react.js';

/** A React host page for the browser tests: its props' callbacks record into `window.reactEvents`. */
declare global {
  interface Window {
    reactEvents: { prop: string; detail: unknown }[];
    dashboard: PlinthDashboardHandle | null;
  }
}

const params = new URLSearchParams(location.search);
window.reactEvents = [];
const record = (prop: string) => (detail: unknown) => window.reactEvents.push({ prop, detail });
const ref = createRef<PlinthDashboardHandle>();

createRoot(document.getElementById('root') as HTMLElement).render(
  createElement(PlinthDashboard, {
    ref,
    baseUrl: params.get('base') ?? '',
    publicId: 'react-board',
    session: 'react-session',
    hideTitle: true,
    filters: { 'orders.status': 'completed' },
    onLoaded: record('onLoaded'),
    onError: record('onError'),
    onFilterChanged: record('onFilterChanged'),
    onDrillDown: record('onDrillDown'),
    onResize: record('onResize'),
  }),
);

Object.defineProperty(window, 'dashboard', { get: () => ref.current });

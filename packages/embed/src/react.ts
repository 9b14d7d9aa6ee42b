import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, type CSSProperties, type ForwardedRef } from 'react';
import { ELEMENT_EVENTS, PlinthDashboardElement } from './element.js';
import type { PageEvents, PageKind, Theme } from './protocol.js';
import type { FilterPresets } from './url.js';

export interface PlinthDashboardProps {
  baseUrl: string;
  session: string;
  publicId?: string;
  kind?: PageKind;
  deploymentId?: number | string;
  theme?: 'light' | 'dark';
  locale?: string;
  hideTitle?: boolean;
  hideBackButton?: boolean;
  hideEdit?: boolean;
  hideDuplicate?: boolean;
  /** Presets by member (`{"orders.status": "completed"}`); a change on a loaded page is sent as setFilters. */
  filters?: FilterPresets;
  /** Leave the height to `style`/CSS instead of the page's content. */
  fixedHeight?: boolean;
  frameTitle?: string;
  className?: string;
  style?: CSSProperties;
  onReady?(detail: PageEvents['ready']): void;
  onLoaded?(detail: PageEvents['loaded']): void;
  onError?(detail: PageEvents['error']): void;
  onFilterChanged?(detail: PageEvents['filterChanged']): void;
  onDrillDown?(detail: PageEvents['drillDown']): void;
  onResize?(detail: PageEvents['resize']): void;
}

/** What a ref to `<PlinthDashboard>` holds. */
export interface PlinthDashboardHandle {
  setFilters(filters: FilterPresets): void;
  setTheme(theme: Theme): void;
  refresh(): void;
  readonly element: PlinthDashboardElement | null;
}

const HANDLERS = {
  onReady: ELEMENT_EVENTS.ready,
  onLoaded: ELEMENT_EVENTS.loaded,
  onError: ELEMENT_EVENTS.error,
  onFilterChanged: ELEMENT_EVENTS.filterChanged,
  onDrillDown: ELEMENT_EVENTS.drillDown,
  onResize: ELEMENT_EVENTS.resize,
} as const;

const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));

function PlinthDashboardView(props: PlinthDashboardProps, ref: ForwardedRef<PlinthDashboardHandle>) {
  const element = useRef<PlinthDashboardElement>(null);
  // Handlers are read when an event arrives, so a new function each render re-subscribes nothing.
  const latest = useRef(props);
  latest.current = props;

  useImperativeHandle(
    ref,
    () => ({
      setFilters: (filters) => element.current?.setFilters(filters),
      setTheme: (theme) => element.current?.setTheme(theme),
      refresh: () => element.current?.refresh(),
      get element() {
        return element.current;
      },
    }),
    [],
  );

  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const listeners = Object.entries(HANDLERS).map(([prop, name]) => {
      const listener = (event: Event) => {
        const handler = latest.current[prop as keyof typeof HANDLERS] as ((detail: unknown) => void) | undefined;
        handler?.((event as CustomEvent).detail);
      };
      node.addEventListener(name, listener);
      return () => node.removeEventListener(name, listener);
    });
    return () => listeners.forEach((remove) => remove());
  }, []);

  // Attributes, not properties: the element reads its attributes, and every value here is a string.
  return createElement('plinth-dashboard', {
    ref: element,
    className: props.className,
    style: props.style,
    'base-url': props.baseUrl,
    session: props.session,
    'public-id': props.publicId,
    kind: props.kind,
    'deployment-id': props.deploymentId === undefined ? undefined : String(props.deploymentId),
    theme: props.theme,
    locale: props.locale,
    'hide-title': flag(props.hideTitle),
    'hide-back-button': flag(props.hideBackButton),
    'hide-edit': flag(props.hideEdit),
    'hide-duplicate': flag(props.hideDuplicate),
    filters: props.filters === undefined ? undefined : JSON.stringify(props.filters),
    'fixed-height': props.fixedHeight ? '' : undefined,
    'frame-title': props.frameTitle,
  });
}

/** `<plinth-dashboard>` for React: the same attributes as props, its events as `on…` callbacks, its methods on a ref. */
export const PlinthDashboard = forwardRef(PlinthDashboardView);
PlinthDashboard.displayName = 'PlinthDashboard';

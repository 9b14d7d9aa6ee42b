import { embedAccessVerb } from './enable-dashboard.js';

export const disableDashboard = embedAccessVerb(false);

/** Usage and cost roll-up, and how to show it. */
export * from './tracker.js';
export * from './format.js';

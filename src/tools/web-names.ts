/** The web tools' names (tools/web-fetch.ts, web-search.ts); policy/web-rules.ts matches rules on them. */
export const WEB_FETCH_TOOL = 'web_fetch';
export const WEB_SEARCH_TOOL = 'web_search';

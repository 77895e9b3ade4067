/**
 * Keeping secrets out of what seek prints and records: every error message, notice, log line,
 * stream-json event and session entry that may hold a URL or a provider's error text goes through
 * `redact` first.
 *
 * What it hides:
 *  - the user info of any URL (`http://user:KEY@host/` becomes `http://***@host/`);
 *  - the values of key-like query parameters (`?key=…`, `api_key`, `apikey`, `token`,
 *    `access_token`, `sig`, `signature`, `secret`, `password`, `X-Amz-Signature`, … compared
 *    case-insensitively, ignoring `-` and `_`), in URLs and in a bare query string after a URL's
 *    path was cut off;
 *  - the literal values registered with `rememberSecret` (the API keys in use, a base URL's
 *    password), wherever they appear, as written and URL-encoded.
 * Nothing else changes, so a message stays as useful as it was.
 */

const MASK = '***';

/** Secrets shorter than this are not replaced literally: a one-letter test key would otherwise
 * mangle every message. URL user info and key-like parameters are hidden whatever their length. */
const MIN_LITERAL_LENGTH = 8;

const secrets = new Set<string>();

/** Registers a secret (an API key, a password) whose literal value `redact` hides from now on. */
export function rememberSecret(value: string | undefined): void {
  if (value === undefined) return;
  const trimmed = value.trim();
  if (trimmed.length < MIN_LITERAL_LENGTH) return;
  secrets.add(trimmed);
  const encoded = encodeURIComponent(trimmed);
  if (encoded !== trimmed) secrets.add(encoded);
}

/** Registers the password and user name of a URL's user info (a base URL, a proxy). */
export function rememberUrlSecrets(url: string | undefined): void {
  if (!url) return;
  try {
    const parsed = new URL(url);
    for (const part of [parsed.password, parsed.username]) {
      if (!part) continue;
      rememberSecret(part);
      try {
        rememberSecret(decodeURIComponent(part));
      } catch {
        // Not valid percent-encoding: the raw form is registered.
      }
    }
    for (const [name, value] of parsed.searchParams) if (isSecretParameter(name)) rememberSecret(value);
  } catch {
    // Not a URL: nothing to register.
  }
}

/** Forgets every registered secret (tests). */
export function forgetSecretsForTesting(): void {
  secrets.clear();
}

/** Whether a query parameter's name says its value is a credential. */
export function isSecretParameter(name: string): boolean {
  const normal = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAME.test(normal);
}

const SECRET_NAME =
  /(?:key|apikey|token|accesstoken|refreshtoken|idtoken|sig|signature|secret|password|passwd|pwd|pass|auth|authorization|credential|credentials|session|sessionid|code)$/;

/** `scheme://…` up to whitespace, a quote or an angle bracket. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
/** Punctuation that ends a sentence after a URL rather than belonging to it. */
const TRAILING = /[.,;:!?)\]}]+$/;
/** A `name=value` pair after `?` or `&` outside a URL (a query whose URL was printed apart). */
const BARE_PARAMETER = /([?&])([A-Za-z0-9_.-]+)=([^&#\s"'<>`]*?)(?=[.,;:!?)\]}]*(?:[\s"'<>`&#]|$))/g;

/** `text` with URL credentials, key-like query values and registered secrets hidden. */
export function redact(text: string): string {
  if (!text) return text;
  let out = text.includes('://') ? text.replace(URL_PATTERN, redactUrlMatch) : text;
  if (out.includes('=')) out = out.replace(BARE_PARAMETER, (whole, lead: string, name: string, value: string) => (value && value !== MASK && isSecretParameter(name) ? `${lead}${name}=${MASK}` : whole));
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** A URL (as text) with its user info and key-like query values hidden. */
export function redactUrl(url: string): string {
  const trailing = TRAILING.exec(url)?.[0] ?? '';
  const body = trailing ? url.slice(0, -trailing.length) : url;
  return hideUrlParts(body) + trailing;
}

function redactUrlMatch(match: string): string {
  return redactUrl(match);
}

function hideUrlParts(url: string): string {
  const schemeEnd = url.indexOf('://') + 3;
  const rest = url.slice(schemeEnd);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const host = at === -1 ? authority : `${MASK}@${authority.slice(at + 1)}`;
  return `${url.slice(0, schemeEnd)}${host}${hideQuery(tail)}`;
}

/** Hides key-like values in the query (and a fragment that looks like one: OAuth implicit flows). */
function hideQuery(tail: string): string {
  return tail.replace(/([?&#])([^=&#]+)=([^&#]*)/g, (whole, lead: string, name: string, value: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // Keep the raw name.
    }
    return value && isSecretParameter(decoded) ? `${lead}${name}=${MASK}` : whole;
  });
}

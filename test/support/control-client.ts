import { fetchJson, type JsonResponse } from './fetch-json.js';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * A signed-in client of the control API, sending what the UI's page sends: the session cookie
 * on every request and, on changes, the page's own Origin.
 */
export class ControlClient {
  private constructor(
    readonly baseUrl: string,
    /** `ah_session=<id>`, as the browser sends it back. */
    readonly cookie: string,
    readonly sessionId: string,
  ) {}

  /** `POST /api/session` with `token`; throws unless it answers 200 with a session cookie. */
  static async signIn(baseUrl: string, token: string): Promise<ControlClient> {
    const res = await fetchJson('POST', `${baseUrl}/api/session`, { token });
    const setCookie = res.headers.get('set-cookie') ?? '';
    const id = /^ah_session=([^;]+)/.exec(setCookie)?.[1];
    if (res.status !== 200 || id === undefined) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
    return new ControlClient(baseUrl, `ah_session=${id}`, id);
  }

  request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
    const sent: Record<string, string> = { cookie: this.cookie, ...headers };
    if (!READ_METHODS.has(method)) sent['origin'] ??= this.baseUrl;
    return fetchJson<T>(method, `${this.baseUrl}${path}`, body, sent);
  }

  get<T = unknown>(path: string): Promise<JsonResponse<T>> {
    return this.request<T>('GET', path);
  }
}

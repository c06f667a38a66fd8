/** A cookie-keeping HTTP client for API tests: talks to the running app as a browser tab would. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const isForm = body instanceof FormData;
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        origin: this.baseUrl,
        ...(body !== undefined && !isForm && { "content-type": "application/json" }),
        ...(this.cookies.size > 0 && { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: response.status, body: parsed as T, headers: response.headers } satisfies ApiResponse<T>;
  }

  get<T = any>(path: string) {
    return this.request<T>("GET", path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body ?? {});
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>("PATCH", path, body ?? {});
  }

  /** Sends one file as multipart/form-data, as a browser's file input would. */
  upload<T = any>(
    path: string,
    file: { name: string; type: string; bytes: Buffer },
    headers: Record<string, string> = {},
  ) {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    return this.request<T>("POST", path, form, headers);
  }

  put<T = any>(path: string, body?: unknown) {
    return this.request<T>("PUT", path, body ?? {});
  }

  delete<T = any>(path: string) {
    return this.request<T>("DELETE", path);
  }

  /** The Cookie header this client sends (for a WebSocket opened as the same user). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** The cookies this client holds (e.g. to start a browser context signed in as the same session). */
  cookieList(): { name: string; value: string }[] {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }

  hasSession(): boolean {
    return [...this.cookies.keys()].some((name) => name.includes("session_token"));
  }
}

/** Signs up, follows the verification link from the inbox, and returns a signed-in, verified client. */
export async function signUpVerified(
  baseUrl: string,
  inbox: {
    waitFor(p: (m: { to: string[]; link: string | null }) => boolean): Promise<{ link: string | null }>;
  },
  email: string,
  password = "correct horse battery",
  name = "Test User",
): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const signUp = await client.post("/api/auth/sign-up/email", { email, password, name });
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  const mail = await inbox.waitFor((m) => m.to.includes(email) && Boolean(m.link?.includes("verifyEmail")));
  const token = new URL(mail.link!).searchParams.get("oobCode")!;
  const verify = await client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status}`);
  return client;
}

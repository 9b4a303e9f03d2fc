/**
 * The part of XMLHttpRequest the app uses (lib/api-client.ts apiUpload: open, setRequestHeader,
 * send, abort, the upload's progress events, load, error and abort), answered by the fake
 * server's handlers as fetch is (fake-server.ts). happy-dom's own XMLHttpRequest would go to the
 * network, past the fake server.
 *
 * The body's upload is the test's to report: the request the handler gets has
 * `uploadProgress(loaded)`, which fires the upload's progress event, so a test can hold the
 * request and watch the page's progress bar move. An answer completes the upload first (a last
 * progress event at the full size, then the upload's load), as a browser does before the
 * response arrives.
 */

/** What the fake server needs of a request sent through this XMLHttpRequest. */
export interface XhrRequest {
  method: string;
  url: string;
  headers: Headers;
  body: FormData | string | undefined;
  signal: AbortSignal;
  uploadProgress: (loaded: number) => void;
}

/** The size a multipart body would have, near enough for progress: its files and texts. */
function bodySize(body: XhrRequest['body']): number {
  if (body === undefined) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).length;
  let size = 0;
  for (const [name, value] of body.entries()) {
    size += name.length + (typeof value === 'string' ? value.length : value.size);
  }
  return size;
}

export function fakeXhrClass(dispatch: (request: XhrRequest) => Promise<Response>) {
  return class FakeXMLHttpRequest extends EventTarget {
    static readonly UNSENT = 0;
    static readonly OPENED = 1;
    static readonly HEADERS_RECEIVED = 2;
    static readonly LOADING = 3;
    static readonly DONE = 4;

    readonly upload = new EventTarget();
    readyState = 0;
    status = 0;
    statusText = '';
    responseText = '';
    #method = 'GET';
    #url = '';
    #headers = new Headers();
    #responseHeaders = new Headers();
    #controller = new AbortController();
    #uploaded = false;

    open(method: string, url: string): void {
      this.#method = method.toUpperCase();
      this.#url = url;
      this.readyState = 1;
    }

    setRequestHeader(name: string, value: string): void {
      this.#headers.append(name, value);
    }

    getAllResponseHeaders(): string {
      return [...this.#responseHeaders].map(([name, value]) => `${name}: ${value}\r\n`).join('');
    }

    getResponseHeader(name: string): string | null {
      return this.#responseHeaders.get(name);
    }

    abort(): void {
      if (this.readyState === 4 || this.#controller.signal.aborted) return;
      this.#controller.abort(new DOMException('The upload was aborted', 'AbortError'));
    }

    send(body?: FormData | string | null): void {
      const total = bodySize(body ?? undefined);
      const progress = (loaded: number) => {
        if (this.#uploaded || this.#controller.signal.aborted) return;
        this.upload.dispatchEvent(
          new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
        );
      };
      const finishUpload = () => {
        if (this.#uploaded || total === 0) return;
        progress(total);
        this.#uploaded = true;
        this.upload.dispatchEvent(
          new ProgressEvent('load', { lengthComputable: true, loaded: total, total }),
        );
      };
      const end = (type: 'load' | 'error' | 'abort') => {
        this.readyState = 4;
        this.dispatchEvent(new ProgressEvent(type));
        this.dispatchEvent(new ProgressEvent('loadend'));
      };
      this.#controller.signal.addEventListener('abort', () => end('abort'), { once: true });

      if (total > 0) {
        this.upload.dispatchEvent(
          new ProgressEvent('loadstart', { lengthComputable: true, loaded: 0, total }),
        );
      }
      dispatch({
        method: this.#method,
        url: this.#url,
        headers: this.#headers,
        body: body ?? undefined,
        signal: this.#controller.signal,
        uploadProgress: progress,
      })
        .then(async (response) => {
          if (this.#controller.signal.aborted) return;
          finishUpload();
          this.status = response.status;
          this.statusText = response.statusText;
          this.#responseHeaders = response.headers;
          this.responseText = await response.text();
          if (this.#controller.signal.aborted) return;
          end('load');
        })
        .catch(() => {
          // The dispatch rejects on the abort (reported above) or as fetch does with no answer.
          if (!this.#controller.signal.aborted) end('error');
        });
    }
  };
}

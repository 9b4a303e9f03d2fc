import { appHeaders, failure, NetworkError, readBody } from '@/lib/api-client';

// Uploads with progress, apart from lib/api-client.ts: only the image library sends files, so
// this stays out of every other page's download.

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Bytes of the whole body. */
  total: number;
}

export interface ApiUploadOptions {
  /** The multipart form; the browser writes its Content-Type with the boundary. */
  body: FormData;
  /** Called as the body goes out (only when the browser knows its length). */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting stops the upload; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The headers of an XMLHttpRequest's answer (`getAllResponseHeaders()`: "name: value" lines). */
function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header the Headers class refuses is not one this client reads.
    }
  }
  return headers;
}

/**
 * POSTs a multipart form to `/api{path}` with the app's headers, reporting how much of the body
 * has been sent: fetch cannot tell (a streamed request body needs HTTP/2 in Chromium and is absent
 * elsewhere), XMLHttpRequest's upload events can. Answers like apiRequest: ApiError for a non-2xx
 * answer (a 401 ends the session), NetworkError when there is none.
 */
export function apiUpload<T>(
  path: string,
  { body, onProgress, signal }: ApiUploadOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const handleAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', handleAbort);
    xhr.open('POST', `/api${path}`);
    appHeaders('application/json').forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      settle();
      // The answer as a Response, read the way apiRequest reads fetch's. No body for a 204.
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        headers: responseHeaders(xhr),
      });
      const read = async () => {
        if (!response.ok) throw await failure(path, response, true);
        return (await readBody(response)) as T;
      };
      read().then(resolve, reject);
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new NetworkError('The server could not be reached'));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(signal?.reason ?? new DOMException('The upload was aborted', 'AbortError'));
    });
    signal?.addEventListener('abort', handleAbort, { once: true });
    xhr.send(body);
  });
}

import { onTestFinished, vi } from 'vitest';

// What a browser does on its own that happy-dom leaves out, for the tests that depend on it.

/**
 * Escape on a modal <dialog>. In a browser it is a close request: the topmost modal dialog gets
 * a cancelable `cancel` event and closes unless that is cancelled (HTML, "close requests");
 * happy-dom's showModal() only sets `open` and ignores the key. From this call to the end of the
 * test, an Escape keydown that nothing prevented does what the browser's would.
 */
export function emulateDialogCloseRequests(): void {
  const modal = new WeakSet<HTMLDialogElement>();
  const showModal = HTMLDialogElement.prototype.showModal;
  const spy = vi.spyOn(HTMLDialogElement.prototype, 'showModal').mockImplementation(function (
    this: HTMLDialogElement,
  ) {
    modal.add(this);
    showModal.call(this);
  });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const topmost = [...document.querySelectorAll('dialog')]
      .filter((dialog) => dialog.open && modal.has(dialog))
      .at(-1);
    if (!topmost) return;
    if (topmost.dispatchEvent(new Event('cancel', { cancelable: true }))) topmost.close();
  };
  document.addEventListener('keydown', onKeyDown);
  onTestFinished(() => {
    document.removeEventListener('keydown', onKeyDown);
    spy.mockRestore();
  });
}

/** A file the page handed to the browser to save. */
export interface Download {
  /** The name the browser would offer (the link's `download`). */
  filename: string;
  /** The file's content. */
  text(): Promise<string>;
}

/**
 * Files saved through a clicked `<a download href="blob:…">`, the way the page offers a file it
 * made. happy-dom would follow such a link as a navigation; here the click is taken as the
 * browser's download instead, and recorded, from this call to the end of the test.
 */
export function catchDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  const createObjectURL = URL.createObjectURL.bind(URL);
  const urls = vi.spyOn(URL, 'createObjectURL').mockImplementation((object) => {
    const url = createObjectURL(object);
    if (object instanceof Blob) blobs.set(url, object);
    return url;
  });
  const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (!this.download || !blob) throw new Error(`Not a download link: ${this.outerHTML}`);
    downloads.push({ filename: this.download, text: () => blob.text() });
  });
  onTestFinished(() => {
    urls.mockRestore();
    clicks.mockRestore();
  });
  return downloads;
}

import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const NEAR_BOTTOM = 64;

/**
 * Keeps a scrolling message list on its newest message while the reader is at the bottom, and
 * leaves it alone once they scroll up to read; `follow()` (on sending) brings it back. Watches
 * the content's size too, so streamed text and late-rendered Markdown keep it pinned.
 */
export function useAutoScroll<TContainer extends HTMLElement, TContent extends HTMLElement>(
  changes: unknown,
) {
  const containerRef = useRef<TContainer>(null);
  const contentRef = useRef<TContent>(null);
  const pinned = useRef(true);

  const toBottom = useCallback(() => {
    const container = containerRef.current;
    if (container && pinned.current) container.scrollTop = container.scrollHeight;
  }, []);

  useLayoutEffect(toBottom, [changes, toBottom]);

  useEffect(() => {
    const content = contentRef.current;
    if (!content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(toBottom);
    observer.observe(content);
    return () => observer.disconnect();
  }, [toBottom]);

  const handleScroll = useCallback(() => {
    const container = containerRef.current;
    if (!container) return;
    pinned.current =
      container.scrollHeight - container.scrollTop - container.clientHeight < NEAR_BOTTOM;
  }, []);

  const follow = useCallback(() => {
    pinned.current = true;
    toBottom();
  }, [toBottom]);

  return { containerRef, contentRef, handleScroll, follow };
}

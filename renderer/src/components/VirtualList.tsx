/**
 * A keyboard-driven, virtualized list (only the visible rows are in the DOM, so 100,000 rows
 * scroll like 100). It is one listbox: the focus stays on the list and aria-activedescendant
 * names the current row, which stays rendered because the list scrolls to it. Pages load as the
 * end comes into view (keyset paging has no random access, so there is no "jump to row N").
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useImperativeHandle, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { Spinner } from './States.js';

/** For a view's own shortcuts: j/k work even when the list does not have the focus yet. */
export interface VirtualListControl {
  /** Focuses the list and moves the cursor by `delta` rows (to the first row when there is none). */
  step(delta: number): void;
  /** Opens the row under the cursor. */
  openActive(): void;
}

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  getKey: (item: T) => string;
  renderRow: (item: T, index: number, active: boolean) => ReactNode;
  /** The row the keyboard cursor is on. */
  activeKey?: string | undefined;
  onActiveChange?: (item: T) => void;
  /** Enter or click. */
  onOpen?: (item: T) => void;
  /** The row shown as open (e.g. its detail is on screen). */
  openKey?: string | undefined;
  hasMore?: boolean;
  loadingMore?: boolean;
  moreError?: string | undefined;
  onLoadMore?: () => void;
  ariaLabel: string;
  listRef?: Ref<HTMLDivElement>;
  controlRef?: Ref<VirtualListControl>;
  /** Extra class on the scroll container. */
  className?: string;
}

/** Start loading the next page this many rows before the end is reached. */
const PREFETCH_ROWS = 40;

export function VirtualList<T>({
  items,
  rowHeight,
  getKey,
  renderRow,
  activeKey,
  onActiveChange,
  onOpen,
  openKey,
  hasMore = false,
  loadingMore = false,
  moreError,
  onLoadMore,
  ariaLabel,
  listRef,
  controlRef,
  className,
}: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const baseId = useId().replace(/:/g, '');
  const footerRows = hasMore || moreError ? 1 : 0;
  const virtualizer = useVirtualizer({
    count: items.length + footerRows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    getItemKey: (index) => (index < items.length ? getKey(items[index]!) : '__footer'),
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? 0;
  const activeIndex = activeKey === undefined ? -1 : items.findIndex((item) => getKey(item) === activeKey);

  // Scroll anchoring: rows inserted above (live tasks arrive on top) must not push the rows you are
  // reading down. Away from the top, the first visible row stays where it was; at the very top
  // the new rows simply appear.
  const anchorRef = useRef<{ key: string; index: number } | null>(null);
  const itemsRef = useRef(items);
  const recordAnchor = (): void => {
    const el = scrollRef.current;
    const index = el ? Math.floor(el.scrollTop / rowHeight) : 0;
    const item = items[index];
    anchorRef.current = item && el && el.scrollTop > 0 ? { key: getKey(item), index } : null;
  };
  useLayoutEffect(() => {
    if (itemsRef.current === items) return;
    itemsRef.current = items;
    const el = scrollRef.current;
    const anchor = anchorRef.current;
    if (el && anchor && items[anchor.index] && getKey(items[anchor.index]!) !== anchor.key) {
      const index = items.findIndex((item) => getKey(item) === anchor.key);
      if (index >= 0) el.scrollTop += (index - anchor.index) * rowHeight;
    }
    const index = el ? Math.floor(el.scrollTop / rowHeight) : 0;
    const item = items[index];
    anchorRef.current = item && el && el.scrollTop > 0 ? { key: getKey(item), index } : null;
  }, [items, getKey, rowHeight]);

  useEffect(() => {
    if (hasMore && !loadingMore && !moreError && onLoadMore && lastIndex >= items.length - PREFETCH_ROWS) onLoadMore();
  }, [hasMore, loadingMore, moreError, onLoadMore, lastIndex, items.length]);

  const move = (index: number): void => {
    if (items.length === 0) return;
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    onActiveChange?.(items[clamped]!);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const openActive = (): void => {
    const item = items[activeIndex];
    if (item && onOpen) onOpen(item);
  };

  useImperativeHandle(controlRef, () => ({
    step(delta) {
      scrollRef.current?.focus({ preventScroll: true });
      move(activeIndex < 0 ? 0 : activeIndex + delta);
    },
    openActive,
  }));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
    const current = activeIndex < 0 ? -1 : activeIndex;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      j: () => move(current + 1),
      ArrowUp: () => move(current <= 0 ? 0 : current - 1),
      k: () => move(current <= 0 ? 0 : current - 1),
      PageDown: () => move(current + page),
      PageUp: () => move(current - page),
      Home: () => move(0),
      End: () => move(items.length - 1),
      Enter: openActive,
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const setRefs = (el: HTMLDivElement | null): void => {
    scrollRef.current = el;
    if (typeof listRef === 'function') listRef(el);
    else if (listRef) (listRef as { current: HTMLDivElement | null }).current = el;
  };

  return (
    <div
      ref={setRefs}
      className={`vlist${className ? ` ${className}` : ''}`}
      role="listbox"
      aria-label={ariaLabel}
      tabIndex={0}
      aria-activedescendant={activeIndex >= 0 ? `${baseId}-row-${activeIndex}` : undefined}
      onKeyDown={onKeyDown}
      onScroll={recordAnchor}
    >
      <div className="vlist-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualItems.map((v) => {
          if (v.index >= items.length) {
            return (
              <div key="__footer" className="vlist-footer" role="presentation" style={{ height: v.size, transform: `translateY(${v.start}px)` }}>
                {moreError ? (
                  <>
                    <span>Could not load more: {moreError}</span>
                    <button type="button" className="btn btn-sm" onClick={onLoadMore}>
                      Try again
                    </button>
                  </>
                ) : (
                  <>
                    <Spinner label="Loading more" /> Loading more…
                  </>
                )}
              </div>
            );
          }
          const item = items[v.index]!;
          const key = getKey(item);
          const active = v.index === activeIndex;
          return (
            <div
              key={v.key}
              id={`${baseId}-row-${v.index}`}
              role="option"
              aria-selected={active}
              aria-current={openKey === key ? 'true' : undefined}
              className={`vlist-row${active ? ' is-active' : ''}${openKey === key ? ' is-open' : ''}`}
              style={{ height: v.size, transform: `translateY(${v.start}px)` }}
              onClick={() => {
                onActiveChange?.(item);
                onOpen?.(item);
              }}
            >
              {renderRow(item, v.index, active)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

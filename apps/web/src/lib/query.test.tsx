import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider, createQueryClient, retryDelayMs, useMutation, useQuery } from './query.ts';
import type { QueryClient } from './query.ts';

const wrapperOf =
  (client: QueryClient) =>
  ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );

afterEach(() => vi.useRealTimers());

function Answer({ queryFn, staleTime }: { queryFn: () => Promise<string>; staleTime?: number }) {
  const query = useQuery({ queryKey: ['answer', 1], queryFn, staleTime });
  return <p>{query.isPending ? 'waiting' : String(query.data)}</p>;
}

describe('useQuery', () => {
  it('components asking for one key share one fetch and its answer', async () => {
    const queryFn = vi.fn(async () => 'forty-two');
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Answer queryFn={queryFn} />
        <Answer queryFn={queryFn} />
      </QueryClientProvider>,
    );
    expect(screen.getAllByText('waiting')).toHaveLength(2);
    await waitFor(() => expect(screen.getAllByText('forty-two')).toHaveLength(2));
    expect(queryFn).toHaveBeenCalledOnce();
  });

  it('a fresh answer is given to the next component without a fetch; a stale one is fetched again', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'x');
    const first = render(<Answer queryFn={queryFn} staleTime={60_000} />, { wrapper: wrapperOf(client) });
    await screen.findByText('x');
    first.unmount();
    render(<Answer queryFn={queryFn} staleTime={60_000} />, { wrapper: wrapperOf(client) });
    expect(screen.getByText('x')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledOnce();
    await act(() => client.invalidateQueries({ queryKey: ['answer'] }));
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('an answer older than its stale time, or dated after a clock set back since, is fetched again by an invalidation that names a stale time; a fresh one is not', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'x');
    render(<Answer queryFn={queryFn} staleTime={60_000} />, { wrapper: wrapperOf(client) });
    await screen.findByText('x');
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now + 30_000);
      await act(() => client.invalidateQueries({ queryKey: ['answer'], staleTime: 60_000 }));
      expect(queryFn).toHaveBeenCalledOnce();
      clock.mockReturnValue(now + 61_000);
      await act(() => client.invalidateQueries({ queryKey: ['answer'], staleTime: 60_000 }));
      expect(queryFn).toHaveBeenCalledTimes(2);
      clock.mockReturnValue(now - 3_600_000);
      await act(() => client.invalidateQueries({ queryKey: ['answer'], staleTime: 60_000 }));
      expect(queryFn).toHaveBeenCalledTimes(3);
      // fresh for good (a confirmed code's answer) stays fresh, whatever the clock
      clock.mockReturnValue(now - 7_200_000);
      await act(() => client.invalidateQueries({ queryKey: ['answer'], staleTime: Infinity }));
      expect(queryFn).toHaveBeenCalledTimes(3);
    } finally {
      clock.mockRestore();
    }
  });

  it('is not fetched while disabled, and starts from its initial data', async () => {
    const queryFn = vi.fn(async () => 'fetched');
    const { result } = renderHook(
      () => useQuery({ queryKey: ['off'], queryFn, enabled: false, initialData: () => 'stored' }),
      { wrapper: wrapperOf(createQueryClient()) },
    );
    expect(result.current).toMatchObject({ data: 'stored', isSuccess: true, isLoading: false });
    expect(queryFn).not.toHaveBeenCalled();
  });

  it('retries a failure as often as asked, waiting 1 s, then 2 s, then reports the error', async () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([1000, 2000, 4000]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const queryFn = vi.fn(async () => {
      throw new Error('down');
    });
    const { result } = renderHook(() => useQuery({ queryKey: ['down'], queryFn, retry: 2 }), {
      wrapper: wrapperOf(createQueryClient()),
    });
    await waitFor(() => expect(queryFn).toHaveBeenCalledOnce());
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(result.current.isError).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect((result.current.error as Error).message).toBe('down');
  });

  it('drops an answer gcTime after its last component has gone', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const client = createQueryClient();
    const { unmount } = renderHook(
      () => useQuery({ queryKey: ['kept'], queryFn: async () => 1, gcTime: 5000 }),
      { wrapper: wrapperOf(client) },
    );
    await waitFor(() => expect(client.getQueryState(['kept'])?.status).toBe('success'));
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(client.getQueryState(['kept'])).toBeDefined();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(client.getQueryState(['kept'])).toBeUndefined();
  });
});

describe('useMutation', () => {
  it("runs onSuccess while still pending, then settles; a call's own callbacks follow", async () => {
    const seen: string[] = [];
    const { result } = renderHook(() =>
      useMutation({
        mutationFn: async (n: number) => n * 2,
        onSuccess: (data, n) => {
          seen.push(`options ${n}→${data} pending=${String(result.current.isPending)}`);
        },
      }),
    );
    act(() => result.current.mutate(2, { onSuccess: (data) => void seen.push(`call ${data}`) }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBe(4);
    expect(seen).toEqual(['options 2→4 pending=true', 'call 4']);
  });

  it('a failure goes to onError (never unhandled); reset makes it idle again', async () => {
    const onError = vi.fn();
    const { result } = renderHook(() =>
      useMutation({
        mutationFn: async () => {
          throw new Error('refused');
        },
        onError,
      }),
    );
    act(() => result.current.mutate(undefined));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'refused' }), undefined);
    act(() => result.current.reset());
    expect(result.current.isIdle).toBe(true);
  });

  it("a call's own callbacks are not run once its component has gone", async () => {
    let finish: (value: string) => void = () => undefined;
    const onCall = vi.fn();
    const onOptions = vi.fn();
    const { result, unmount } = renderHook(() =>
      useMutation({
        mutationFn: () => new Promise<string>((resolve) => (finish = resolve)),
        onSuccess: onOptions,
      }),
    );
    act(() => result.current.mutate(undefined, { onSuccess: onCall }));
    unmount();
    await act(async () => finish('late'));
    expect(onOptions).toHaveBeenCalledOnce();
    expect(onCall).not.toHaveBeenCalled();
  });
});

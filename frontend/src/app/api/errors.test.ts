import { globalErrorKind } from './errors';

describe('globalErrorKind', () => {
  it.each([
    [401, 'sessionExpired'],
    [403, 'noRight'],
    [413, 'tooLarge'],
    [500, 'cannotFetch'],
    [503, 'cannotFetch'],
    ['FETCH_ERROR', 'cannotFetch'],
    ['TIMEOUT_ERROR', 'cannotFetch'],
    [404, null],
    [422, null],
  ])('status %p is handled as %p', (status, kind) => {
    expect(globalErrorKind({ status, data: null } as never)).toBe(kind);
  });

  it('leaves errors without a status to the screen', () => {
    expect(globalErrorKind(undefined)).toBeNull();
    expect(globalErrorKind({ message: 'x' })).toBeNull();
  });
});

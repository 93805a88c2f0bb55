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

  it('leaves a refusal the team screens explain to them, and tells an ended membership apart', () => {
    const refused = (code: string) => ({ status: 403, data: { error: { code } } }) as never;
    expect(globalErrorKind(refused('team_last_owner'))).toBe('noRight');
    expect(globalErrorKind(refused('team_owner_only'))).toBeNull();
    expect(globalErrorKind(refused('role_beyond_own_rights'))).toBeNull();
    expect(globalErrorKind(refused('membership_ended'))).toBe('membershipEnded');
  });

  it('leaves a carrier that cannot be reached to the screen that asked it', () => {
    expect(globalErrorKind({ status: 503, data: { error: { code: 'carrier_unreachable' } } } as never)).toBeNull();
    expect(globalErrorKind({ status: 503, data: { error: { code: 'service_unavailable' } } } as never)).toBe('cannotFetch');
  });

  it('leaves errors without a status to the screen', () => {
    expect(globalErrorKind(undefined)).toBeNull();
    expect(globalErrorKind({ message: 'x' })).toBeNull();
  });
});

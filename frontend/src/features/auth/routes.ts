// Signing in and picking a store (SPEC §2), outside any store.
import type { FeatureRoute } from '@/shared/routes';

export const ROUTES: FeatureRoute[] = [
  { path: '/login', layout: 'none', gate: 'guest', page: () => import('./LoginPage') },
  { path: '/choose-store', layout: 'noSidebar', gate: 'user', page: () => import('./ChooseStorePage') },
];

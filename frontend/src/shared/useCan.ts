import { useParams } from 'react-router-dom';

import { useAppSelector } from '@/app/hooks';
import { allows, type Access } from './perms';

/** True when the member may do what `access` asks; elements they may not use are hidden. */
export function useCan(access: Access): boolean {
  const { storeId } = useParams();
  const login = useAppSelector((s) => (storeId ? s.session.stores[storeId] : undefined));
  return Boolean(login && allows(access, login.permission, login.permissions));
}

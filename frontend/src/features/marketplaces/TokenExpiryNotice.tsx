import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';

import { SALE_CHANNELS, useLazyMarketplaceConnectionsQuery } from './api';
import { connectionTrouble, resetTokenCheck, takeTokenCheck } from './marketplaces';
import { showDialogOnce } from '@/shared/dialogs/dialogs';
import { useCan } from '@/shared/useCan';

/** Tells, as a store's screens are opened, that a marketplace shop's connection is lost or
 * ends within 7 days (SPEC §4, §8): at most every 300 s per store, at once on entering it.
 * The owner is offered the sale-channel list (or cancel); staff are told to ask the owner. A
 * failed check says nothing. */
export function TokenExpiryNotice({ storeId }: { storeId: number }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const owner = useCan(SALE_CHANNELS);
  const { i18n } = useTranslation();
  const [check] = useLazyMarketplaceConnectionsQuery();

  useEffect(() => {
    resetTokenCheck(storeId);
  }, [storeId]);

  useEffect(() => {
    // The owner is on the shops' own screens already.
    if (pathname.includes('/sale-channel')) return;
    if (!takeTokenCheck(storeId, Date.now())) return;
    let gone = false;
    check({ status: 'active' })
      .unwrap()
      .then(async (r) => {
        const { lost, endingSoon } = connectionTrouble(r.data, Date.now());
        const shops = lost.length ? lost : endingSoon;
        if (gone || shops.length === 0) return;
        // The dialog's words are the marketplaces', which this screen may not have loaded.
        await i18n.loadNamespaces('marketplaces');
        const what = lost.length ? 'lost' : 'ending';
        const values = { shops: shops.map((s) => s.shopName).join(', ') };
        const asked = owner
          ? showDialogOnce({
              kind: 'warning',
              title: `marketplaces:notice.${what}Title`,
              message: `marketplaces:notice.${what}Owner`,
              values,
              confirm: 'marketplaces:notice.toList',
              cancel: true,
            })
          : showDialogOnce({ kind: 'info', title: `marketplaces:notice.${what}Title`, message: `marketplaces:notice.${what}Staff`, values, cancel: false });
        if (owner && asked && (await asked)) navigate(`/${storeId}/sale-channel-list`);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [pathname, storeId, owner, check, navigate, i18n]);

  return null;
}

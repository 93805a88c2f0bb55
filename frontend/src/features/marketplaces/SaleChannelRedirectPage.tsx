import { useEffect } from 'react';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';

import { readState } from './marketplaces';

/** /sale-channel-redirect (SPEC §2): where a marketplace sends the seller back after they
 * authorized us, outside any store and without a sign-in check. The link's state names the
 * store and the marketplace; the page hands the code over to that store's
 * /sale-channel-auth/{saleChannel}, which spends it. A refused authorization or a state that
 * is not ours says so. */
export default function SaleChannelRedirectPage() {
  const { t } = useTranslation(['marketplaces', 'common']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const at = readState(params.get('state'));
  const code = params.get('code') ?? '';
  const refused = params.get('error') !== null || code === '' || code === 'null';

  useEffect(() => {
    if (!at || refused) return;
    const next = new URLSearchParams({ state: params.get('state') ?? '', code });
    const shop = params.get('shop_id');
    if (shop) next.set('shop_id', shop);
    navigate(`/${at.storeId}/sale-channel-auth/${at.marketplace}?${next.toString()}`, { replace: true });
  }, [at, code, navigate, params, refused]);

  if (at && !refused) return null;
  return (
    <Result
      status="warning"
      title={t(refused && at ? 'marketplaces:redirect.refused' : 'marketplaces:redirect.unknown')}
      subTitle={t('marketplaces:redirect.hint')}
      extra={
        <Button type="primary" onClick={() => navigate(at ? `/${at.storeId}/sale-channel-list` : '/choose-store')} data-testid="redirect-back">
          {t('marketplaces:redirect.back')}
        </Button>
      }
      data-testid="sale-channel-redirect"
    />
  );
}

import { useEffect, useRef, useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { refusalKey } from '@/shared/refusal';
import { useConnectMutation } from './api';
import { pathOf } from './marketplaces';

/** /sale-channel-auth/{saleChannel} (SPEC §2): spends the code the marketplace's redirect
 * brought (once: a link is good for one try), then opens the connected shop's settings so the
 * owner picks its warehouse, shipping channel and payment account. A refusal says why and
 * leads back to the list to connect again. */
export default function SaleChannelAuthPage() {
  const { t } = useTranslation(['marketplaces', 'common']);
  const { storeId, saleChannel } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [connect] = useConnectMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const asked = useRef(false);
  const mp = pathOf(saleChannel);
  const list = `/${Number(storeId)}/sale-channel-list`;

  useEffect(() => {
    if (asked.current || !mp) return;
    asked.current = true;
    const body = { state: params.get('state') ?? '', code: params.get('code') ?? '', shopId: params.get('shop_id') ?? '' };
    connect({ mp, marketplaceConnectInput: body })
      .unwrap()
      .then((r) => {
        const first = r.data[0];
        navigate(first ? `/${Number(storeId)}/sale-channel-setting/${mp}/${first.id}?connected=1` : list, { replace: true });
      })
      .catch((e: unknown) => setFailure(refusalKey(apiError(e)?.code, 'marketplaces') ?? 'marketplaces:errors.connect_failed'));
  }, [connect, list, mp, navigate, params, storeId]);

  const shown = mp ? failure : 'marketplaces:errors.connect_failed';
  if (!shown) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }} data-testid="sale-channel-connecting">
        <Spin size="large" description={t('marketplaces:auth.connecting')}>
          <div style={{ minHeight: 80 }} />
        </Spin>
      </div>
    );
  }
  return (
    <Result
      status="error"
      title={t('marketplaces:auth.failed')}
      subTitle={t(shown)}
      extra={
        <Button type="primary" onClick={() => navigate(list)} data-testid="sale-channel-auth-back">
          {t('marketplaces:auth.back')}
        </Button>
      }
      data-testid="sale-channel-auth-failed"
    />
  );
}

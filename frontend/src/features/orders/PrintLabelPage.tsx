import { useEffect, useState } from 'react';
import { Alert, Button, Card, Result, Segmented, Space, Spin, Typography } from 'antd';
import { DownloadOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useLabelsPdfMutation } from './api';
import { idsOf, isLabelSize, LABEL_SIZES, listPath, type LabelSize } from './orders';
import { reasonKey } from './refusal';

/** /print-label?ids=1,2,3&size=a6 (SPEC §2 Other): the labels of every parcel of those orders
 * in one PDF, A6 or 100 × 150 mm, fetched once the page opens, then opened in a new tab to
 * print (the browser's PDF viewer prints it) or downloaded. The gateway's content policy
 * frames nothing but its own pages, so the PDF (an object URL) is not shown inside the page.
 * Printing records when each label was printed. */
export default function PrintLabelPage() {
  const { t } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const ids = idsOf(params.get('ids'));
  const size: LabelSize = isLabelSize(params.get('size')) ? (params.get('size') as LabelSize) : 'a6';
  const [load, { isLoading }] = useLabelsPdfMutation();
  const [pdf, setPdf] = useState<{ key: string; url: string } | null>(null);
  const [failure, setFailure] = useState<{ key: string; code: string } | null>(null);
  const key = `${ids.join(',')}|${size}`;

  useEffect(() => {
    if (ids.length === 0) return;
    let gone = false;
    let url: string | null = null;
    load({ orderIds: ids, size })
      .unwrap()
      .then((u) => {
        url = u;
        if (gone) URL.revokeObjectURL(u);
        else setPdf({ key, url: u });
      })
      .catch((e: unknown) => {
        if (!gone) setFailure({ key, code: apiError(e)?.code ?? '' });
      });
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
    // One load per set of orders and size.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  if (ids.length === 0) {
    return (
      <Result
        status="info"
        title={t('orders:labels.noOrders')}
        extra={<Button onClick={() => navigate(listPath(storeId ?? '', 'ready_to_fulfillment'))}>{t('orders:detail.backToList')}</Button>}
      />
    );
  }

  const current = pdf && pdf.key === key ? pdf.url : null;
  const failed = failure && failure.key === key ? failure.code : null;
  const fileName = `labels-${size}.pdf`;
  const save = (download: boolean) => {
    if (!current) return;
    const a = document.createElement('a');
    a.href = current;
    if (download) a.download = fileName;
    else a.target = '_blank';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  return (
    <Card data-testid="print-label">
      <div className="bo-page-head">
        <Space orientation="vertical" size={0}>
          <h1>{t('orders:labels.title')}</h1>
          <Typography.Text type="secondary" data-testid="print-label-count">
            {t('orders:labels.orders', { count: ids.length })}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Segmented<LabelSize>
            value={size}
            onChange={(v) => {
              const next = new URLSearchParams(params);
              next.set('size', v);
              setParams(next, { replace: true });
            }}
            options={LABEL_SIZES.map((s) => ({ value: s, label: <span data-testid={`label-size-${s}`}>{t(`orders:labels.size.${s}`)}</span> }))}
          />
          <Button type="primary" icon={<PrinterOutlined />} disabled={!current} onClick={() => save(false)} data-testid="label-print">
            {t('orders:labels.print')}
          </Button>
          <Button icon={<DownloadOutlined />} disabled={!current} onClick={() => save(true)} data-testid="label-download">
            {t('orders:labels.download')}
          </Button>
        </Space>
      </div>
      {failed !== null ? (
        <Alert type="error" showIcon title={t('orders:failure.print')} description={t('orders:failure.checkDetail', { reason: t(reasonKey(failed)) })} data-testid="label-failed" />
      ) : current ? (
        <Result
          icon={<FilePdfOutlined style={{ color: '#0b2545' }} />}
          title={t('orders:labels.ready', { size: t(`orders:labels.size.${size}`) })}
          subTitle={t('orders:labels.readyHint')}
          data-testid="label-ready"
        />
      ) : (
        <Spin spinning={isLoading} style={{ display: 'block', margin: '64px auto' }} />
      )}
    </Card>
  );
}

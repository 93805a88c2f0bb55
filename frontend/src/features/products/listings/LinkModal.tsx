import { useState } from 'react';
import { Alert, Button, Input, InputNumber, Modal, Segmented, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useLinkListingMutation, type ListingBody } from '@/features/marketplaces/api';
import { SkuSelect } from '@/features/stock/api';
import { notifySuccess } from '@/shared/dialogs/notify';
import { notifyRefusal } from '@/shared/refusal';
import { partsProblem, reference, variation, type PartDraft } from './listing';

/** Links a listing to one of our SKUs, or makes it a bundle of several (SPEC §2 products of
 * a channel): a person's link, which nothing automatic replaces. */
/** Rendered per listing (keyed by it), so its state starts from the listing's link. */
export function LinkModal({ listing, onClose }: { listing: ListingBody; onClose: () => void }) {
  const { t } = useTranslation(['products', 'common']);
  const bundled = listing.parts.length > 0;
  const [kind, setKind] = useState<'sku' | 'bundle'>(bundled ? 'bundle' : 'sku');
  const [skuId, setSkuId] = useState<number | undefined>(listing.skuId ?? undefined);
  const [parts, setParts] = useState<PartDraft[]>(() =>
    bundled
      ? listing.parts.map((p) => ({ skuId: p.skuId, quantity: p.quantity, share: p.costShare ?? '' }))
      : [
          { quantity: 1, share: '' },
          { quantity: 1, share: '' },
        ],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [link, { isLoading }] = useLinkListingMutation();

  const save = async () => {
    if (kind === 'sku' && !skuId) {
      setProblem('products:listings.link.needSku');
      return;
    }
    const bad = kind === 'bundle' ? partsProblem(parts) : null;
    if (bad) {
      setProblem(bad);
      return;
    }
    const listingLinkInput =
      kind === 'sku'
        ? { skuId }
        : { parts: parts.map((p) => ({ skuId: p.skuId!, quantity: p.quantity, costShare: p.share.trim() || undefined })) };
    try {
      await link({ id: listing.id, listingLinkInput }).unwrap();
      notifySuccess(t('products:listings.link.done'));
      onClose();
    } catch (e) {
      notifyRefusal(e, t, 'products', { rule: (code) => t(`products:listings.link.rule.${code}`, { defaultValue: t('products:listings.link.failed') }) });
    }
  };

  const setPart = (i: number, patch: Partial<PartDraft>) => setParts((ps) => ps.map((p, j) => (j === i ? { ...p, ...patch } : p)));

  return (
    <Modal
      open
      title={t('products:listings.link.title')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common:actions.save')}
      confirmLoading={isLoading}
      width={720}
      destroyOnHidden
    >
      <Typography.Paragraph>
        <strong>{listing.name}</strong>
        <br />
        <Typography.Text type="secondary">
          {[variation(listing), listing.sellerSku, reference(listing)].filter(Boolean).join(' · ')}
        </Typography.Text>
      </Typography.Paragraph>
      <Segmented
        value={kind}
        onChange={(v) => {
          setKind(v as 'sku' | 'bundle');
          setProblem(null);
        }}
        options={[
          { value: 'sku', label: t('products:listings.link.oneSku') },
          { value: 'bundle', label: t('products:listings.link.bundle') },
        ]}
        style={{ marginBottom: 16 }}
        data-testid="link-kind"
      />
      {kind === 'sku' ? (
        <SkuSelect
          value={skuId}
          onChange={setSkuId}
          placeholder={t('products:listings.link.searchSku')}
          known={listing.skuId ? new Map([[listing.skuId, [listing.skuName, listing.skuCode].filter(Boolean).join(' · ')]]) : undefined}
          testId="link-sku"
          style={{ width: '100%' }}
        />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('products:listings.bundle.hint')}</Typography.Text>
          {parts.map((p, i) => (
            <div key={i} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 150px 120px 32px', gap: 8 }} data-testid={`bundle-part-${i}`}>
              <div>
                <SkuSelect
                  value={p.skuId}
                  onChange={(v) => setPart(i, { skuId: v })}
                  placeholder={t('products:listings.link.searchSku')}
                  known={
                    listing.parts[i]
                      ? new Map([[listing.parts[i].skuId, [listing.parts[i].skuName, listing.parts[i].skuCode].filter(Boolean).join(' · ')]])
                      : undefined
                  }
                  testId={`bundle-sku-${i}`}
                  style={{ width: '100%' }}
                />
              </div>
              <InputNumber
                min={1}
                max={1000}
                precision={0}
                value={p.quantity}
                onChange={(v) => setPart(i, { quantity: Number(v ?? 1) })}
                suffix={t('products:listings.bundle.perSet')}
                style={{ width: '100%' }}
                data-testid={`bundle-quantity-${i}`}
              />
              <Input
                style={{ width: '100%' }}
                value={p.share}
                onChange={(e) => setPart(i, { share: e.target.value })}
                placeholder={t('products:listings.bundle.share')}
                suffix="%"
                data-testid={`bundle-share-${i}`}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('common:actions.delete')}
                disabled={parts.length <= 1}
                onClick={() => setParts((ps) => ps.filter((_, j) => j !== i))}
              />
            </div>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => setParts((ps) => [...ps, { quantity: 1, share: '' }])} data-testid="bundle-add">
            {t('products:listings.bundle.add')}
          </Button>
        </Space>
      )}
      {problem ? <Alert type="error" showIcon title={t(problem)} style={{ marginTop: 16 }} data-testid="link-problem" /> : null}
    </Modal>
  );
}

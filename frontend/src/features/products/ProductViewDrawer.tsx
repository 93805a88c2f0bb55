import { Descriptions, Drawer, Image, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { useGetProductQuery, type SkuBody } from './api';

/** A SKU's options as shown: the values, in variant order (the keys carry an ordering
 * prefix on the wire). */
export function skuOptions(s: Pick<SkuBody, 'variantOption'>): string {
  return Object.entries(s.variantOption ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, v]) => v)
    .join(' / ');
}

/** A product as a member who may read but not edit sees it: every field, its SKUs and
 * pictures, nothing to change. */
export function ProductViewDrawer({ productId, categoryName, onClose }: { productId: number | null; categoryName: (id: number) => string; onClose: () => void }) {
  const { t } = useTranslation(['products', 'common']);
  const { data: p, isFetching } = useGetProductQuery({ id: productId ?? 0 }, { skip: productId === null });
  const money = (s: string) => Number(s).toLocaleString('th-TH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (
    <Drawer open={productId !== null} onClose={onClose} size={640} title={p?.name ?? t('products:view.title')} data-testid="product-view">
      {isFetching || !p ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {p.photos.length ? (
            <Image.PreviewGroup>
              <Space wrap>
                {p.photos.map((ph) => (
                  <Image key={ph.id} src={`${ph.url}?size=100`} preview={{ src: ph.url }} width={80} height={80} alt="" />
                ))}
              </Space>
            </Image.PreviewGroup>
          ) : null}
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('products:fields.code')}>{p.code}</Descriptions.Item>
            {p.nameEn ? <Descriptions.Item label={t('products:fields.nameEn')}>{p.nameEn}</Descriptions.Item> : null}
            <Descriptions.Item label={t('products:fields.category')}>{categoryName(p.categoryId)}</Descriptions.Item>
            <Descriptions.Item label={t('products:fields.status')}>
              <Tag color={p.status === 'active' ? 'green' : 'default'}>{t(`products:status.${p.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('products:fields.price')}>{money(p.price)}</Descriptions.Item>
            <Descriptions.Item label={t('products:fields.cost')}>{money(p.cost)}</Descriptions.Item>
            {p.brand ? <Descriptions.Item label={t('products:fields.brand')}>{p.brand}</Descriptions.Item> : null}
            <Descriptions.Item label={t('products:fields.tags')}>
              {p.tags.map((tag) => (
                <Tag key={tag}>{tag}</Tag>
              ))}
            </Descriptions.Item>
            <Descriptions.Item label={t('products:fields.shortDescription')}>{p.shortDescription}</Descriptions.Item>
            {p.description ? (
              <Descriptions.Item label={t('products:fields.description')}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{p.description}</Typography.Paragraph>
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={p.skus}
            data-testid="product-view-skus"
            columns={[
              { title: t('products:fields.skuCode'), dataIndex: 'code' },
              { title: t('products:view.options'), render: (_: unknown, s: SkuBody) => skuOptions(s) || '—' },
              { title: t('products:fields.price'), render: (_: unknown, s: SkuBody) => money(s.price), align: 'right' as const },
              { title: t('products:fields.safetyStock'), dataIndex: 'safetyStock', align: 'right' as const },
              {
                title: t('products:fields.available'),
                render: (_: unknown, s: SkuBody) => s.inventories.reduce((a, i) => a + i.available, 0),
                align: 'right' as const,
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

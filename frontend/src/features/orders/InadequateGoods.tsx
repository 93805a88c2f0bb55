// Import of inadequate goods (SPEC §2 order list action, §5 one warehouse at a time, §8
// 'Inadequate goods aren't found'): what the short orders of a warehouse wait for, as a list
// to download; the list back with the quantities that arrived is checked, then received into
// the warehouse's stock, which fills the short orders oldest first.
import { useState } from 'react';
import { Alert, Button, Empty, Modal, Select, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError } from '@/app/api/errors';
import { csvText, downloadText } from '@/shared/csv';
import { notifySuccess } from '@/shared/dialogs/notify';
import { useReceiveArrivalsFileMutation, useShortagesQuery, type ArrivalsBody, type ShortageBody } from './api';
import { checkOrderImportFile } from './import/session';

interface Props {
  open: boolean;
  onClose: () => void;
  warehouses: { id: number; name: string; isDefault: boolean }[];
}

/** The list as a file to fill in: the SKU, what is needed, and an arriving quantity
 * prefilled with what is missing. */
export function shortagesFile(list: ShortageBody[], head: string[]): string {
  return csvText([head, ...list.map((s) => [s.skuCode, [s.productName, s.variant].filter(Boolean).join(' '), s.needed, s.available, s.missing, s.missing])]);
}

export function InadequateGoods({ open, onClose, warehouses }: Props) {
  const { t } = useTranslation(['orders', 'common']);
  const first = warehouses.find((w) => w.isDefault) ?? warehouses[0];
  const [warehouseId, setWarehouseId] = useState<number | undefined>(undefined);
  const chosen = warehouseId ?? first?.id;
  const { data, isFetching } = useShortagesQuery({ warehouseId: chosen ?? 0 }, { skip: !open || !chosen });
  const [receive, { isLoading }] = useReceiveArrivalsFileMutation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ArrivalsBody | null>(null);
  const [problem, setProblem] = useState<string | string[] | null>(null);
  const list = data?.data ?? [];
  const message = (code: string) => t([`orders:${code}`, `common:${code}`, 'orders:import.unknownProblem']);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setProblem(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const refusal = (e: unknown): string | string[] => {
    const err = apiError(e);
    const code = err?.fields?.[0]?.code ?? err?.code;
    if (code === 'inadequate_goods_not_found') return 'orders:fill.noneShort';
    if (code?.startsWith('import_')) return `orders:import.errors.${code}`;
    return code ? [`orders:${code}`, `common:${code}`, 'common:errors.tryLater'] : 'common:errors.tryLater';
  };

  const choose = async (f: File) => {
    reset();
    const local = checkOrderImportFile(f.name, f.size);
    if (local) return setProblem(local);
    if (!chosen) return;
    try {
      setPreview(await receive({ file: f, warehouseId: chosen, dryRun: true }).unwrap());
      setFile(f);
    } catch (e) {
      setProblem(refusal(e));
    }
  };

  const submit = async () => {
    if (!file || !chosen) return;
    try {
      const r = await receive({ file, warehouseId: chosen, dryRun: false }).unwrap();
      close();
      if (r.data.replayed) {
        notifySuccess(t('orders:inadequate.replayed'));
      } else {
        notifySuccess(t('orders:inadequate.done', { skus: r.data.lines.length, filled: r.data.filled.length, short: r.data.short.length }));
      }
    } catch (e) {
      setProblem(refusal(e));
    }
  };

  const head = [t('orders:import.columns.sku'), t('orders:inadequate.product'), t('orders:inadequate.needed'), t('orders:inadequate.available'), t('orders:inadequate.missing'), t('orders:inadequate.arriving')];

  return (
    <Modal open={open} title={t('orders:inadequate.title')} onCancel={close} footer={null} width={880} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('orders:inadequate.hint')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          value={chosen}
          onChange={(v: number) => {
            reset();
            setWarehouseId(v);
          }}
          options={warehouses.map((w) => ({ value: w.id, label: w.name }))}
          style={{ minWidth: 240 }}
          data-testid="inadequate-warehouse"
        />
        {list.length ? (
          <>
            <Button icon={<DownloadOutlined />} onClick={() => downloadText(t('orders:inadequate.fileName'), shortagesFile(list, head))} data-testid="inadequate-download">
              {t('orders:inadequate.download')}
            </Button>
            <Upload
              accept=".csv,.xlsx"
              showUploadList={false}
              beforeUpload={(f) => {
                void choose(f);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={isLoading} data-testid="inadequate-upload">
                {t('orders:inadequate.upload')}
              </Button>
            </Upload>
          </>
        ) : null}
      </Space>
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem)} data-testid="inadequate-error" /> : null}
      {preview ? (
        <>
          <Table
            rowKey={(l) => l.shortage.skuId}
            size="small"
            pagination={false}
            dataSource={preview.data.lines}
            title={() => t('orders:inadequate.arrivingTitle')}
            data-testid="inadequate-preview"
            columns={[
              { title: t('orders:import.columns.sku'), render: (_: unknown, l) => l.shortage.skuCode },
              { title: t('orders:inadequate.product'), render: (_: unknown, l) => l.shortage.productName },
              { title: t('orders:inadequate.missing'), align: 'right', render: (_: unknown, l) => l.shortage.missing },
              { title: t('orders:inadequate.arriving'), align: 'right', dataIndex: 'quantity' },
            ]}
          />
          {preview.errors.length ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 12 }}
              title={t('orders:import.previewFailed', { count: preview.errors.length })}
              description={preview.errors.map((e) => `${t('orders:import.row')} ${e.row}: ${message(e.code)}`).join(' · ')}
              data-testid="inadequate-problems"
            />
          ) : null}
          <Space style={{ marginTop: 16 }}>
            <Button onClick={reset}>{t('common:actions.cancel')}</Button>
            <Button type="primary" onClick={() => void submit()} loading={isLoading} disabled={!preview.data.lines.length} data-testid="inadequate-confirm">
              {t('orders:inadequate.confirm')}
            </Button>
          </Space>
        </>
      ) : list.length ? (
        <Table<ShortageBody>
          rowKey="skuId"
          size="small"
          loading={isFetching}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          dataSource={list}
          data-testid="inadequate-list"
          columns={[
            { title: t('orders:import.columns.sku'), dataIndex: 'skuCode' },
            { title: t('orders:inadequate.product'), render: (_: unknown, s) => [s.productName, s.variant].filter(Boolean).join(' ') },
            { title: t('orders:inadequate.needed'), dataIndex: 'needed', align: 'right' },
            { title: t('orders:inadequate.available'), dataIndex: 'available', align: 'right' },
            { title: t('orders:inadequate.missing'), dataIndex: 'missing', align: 'right' },
            { title: t('orders:inadequate.orders'), dataIndex: 'orders', align: 'right' },
          ]}
        />
      ) : isFetching ? null : (
        <Empty description={t('orders:fill.noneShort')} data-testid="inadequate-none" />
      )}
    </Modal>
  );
}

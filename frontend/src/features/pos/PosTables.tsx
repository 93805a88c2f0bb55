// The four lists of /pos-setting: branches, POS units, cashiers and sellers, each with its
// add, edit and delete actions for members who may change the setup.
import { Alert, Button, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import {
  useDeleteBranchMutation,
  useDeleteCashierMutation,
  useDeletePosUnitMutation,
  useDeleteSellerMutation,
  type BranchRow,
  type PosPersonRow,
  type PosUnitRow,
} from './api';
import { notifyRefusal } from '@/shared/refusal';
import { addressLine, branchLabel, branchOf, formatTaxId, MAIN_BRANCH } from './pos';

/** What every list knows: the store, whether the member may change the setup, warehouse names. */
export interface ListProps {
  storeId: number;
  canEdit: boolean;
  loading: boolean;
  warehouseName: (id: number) => string;
}

/** The list's head: what it holds, and the add button (disabled with a reason when it must wait). */
function ListHead({ hint, action }: { hint: string; action: ReactNode }) {
  return (
    <div className="bo-page-head">
      <Typography.Text type="secondary">{hint}</Typography.Text>
      {action}
    </div>
  );
}

function AddButton({ label, testId, onClick, blocked }: { label: string; testId: string; onClick: () => void; blocked: string | null }) {
  const button = (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} disabled={blocked !== null} data-testid={testId}>
      {label}
    </Button>
  );
  return blocked ? (
    <Tooltip title={blocked}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

function RowActions({ testId, onEdit, onDelete }: { testId: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Space wrap size={4}>
      <Button size="small" icon={<EditOutlined />} onClick={onEdit} data-testid={`${testId}-edit`}>
        {t('common:actions.edit')}
      </Button>
      <Button size="small" danger icon={<DeleteOutlined />} onClick={onDelete} data-testid={`${testId}-delete`}>
        {t('common:actions.delete')}
      </Button>
    </Space>
  );
}

function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('pos');
  return <Tag color={status === 'active' ? 'green' : 'default'}>{t(`pos:status.${status}`, { defaultValue: status })}</Tag>;
}

/** Asks before a delete; true when confirmed. */
function confirmDelete(kind: 'branches' | 'posUnits' | 'cashiers' | 'sellers', name: string): Promise<boolean> {
  return showDialog({ kind: 'warning', title: `pos:${kind}.deleteTitle`, message: `pos:${kind}.deleteMessage`, values: { name }, confirm: 'common:actions.delete' });
}

const actionsColumn = <T,>(title: string, render: (row: T) => ReactNode) => ({ title, key: 'actions', align: 'right' as const, render: (_: unknown, row: T) => render(row) });

export function BranchTable({ storeId, canEdit, loading, warehouseName, branches }: ListProps & { branches: BranchRow[] }) {
  const { t } = useTranslation(['pos', 'common']);
  const navigate = useNavigate();
  const [remove] = useDeleteBranchMutation();
  const hasMain = branches.some((b) => b.isMain);
  const create = (main: boolean) => navigate(`/${storeId}/pos-setting/branch-receipt${main ? '?main=1' : ''}`);

  const onDelete = async (b: BranchRow) => {
    if (!(await confirmDelete('branches', branchLabel(b)))) return;
    try {
      await remove({ id: storeId, branchId: b.id }).unwrap();
      notifySuccess(t('pos:branches.deleted'));
    } catch (e) {
      if (apiError(e)?.code === 'branch_in_use') {
        await showDialog({ kind: 'error', title: 'pos:branches.inUseTitle', message: 'pos:errors.branch_in_use', values: { name: branchLabel(b) } });
      } else {
        notifyRefusal(e, t, 'pos', { fallback: 'pos:errors.delete_failed' });
      }
    }
  };

  const columns = [
    {
      title: t('pos:fields.branchNo'),
      dataIndex: 'branchNo',
      render: (no: string, b: BranchRow) => (
        <Space size={4} wrap>
          <span>{no}</span>
          {b.isMain || no === MAIN_BRANCH ? (
            <Tag color="blue" data-testid={`branch-main-${b.id}`}>
              {t('pos:branches.mainTag')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    { title: t('pos:fields.branchName'), dataIndex: 'name' },
    { title: t('pos:fields.taxId'), dataIndex: 'taxId', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatTaxId(v)}</span> },
    { title: t('pos:fields.warehouse'), dataIndex: 'warehouseId', render: (w: number) => warehouseName(w) },
    { title: t('pos:fields.address'), render: (_: unknown, b: BranchRow) => addressLine(b) },
    ...(canEdit
      ? [
          actionsColumn<BranchRow>(t('pos:fields.actions'), (b) => (
            <RowActions testId={`branch-${b.id}`} onEdit={() => navigate(`/${storeId}/pos-setting/branch-receipt/${b.id}/edit`)} onDelete={() => void onDelete(b)} />
          )),
        ]
      : []),
  ];

  const empty = (
    <Empty description={t('pos:branches.emptyTitle')} data-testid="branch-empty">
      <Typography.Paragraph type="secondary">{t('pos:branches.emptyHint')}</Typography.Paragraph>
      {canEdit ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => create(true)} data-testid="branch-create-main">
          {t('pos:branches.createMain')}
        </Button>
      ) : null}
    </Empty>
  );

  return (
    <>
      <ListHead
        hint={t('pos:branches.hint')}
        action={canEdit ? <AddButton label={t('pos:branches.create')} testId="branch-create" onClick={() => create(!hasMain)} blocked={null} /> : null}
      />
      <Table<BranchRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={branches}
        pagination={false}
        locale={{ emptyText: empty }}
        scroll={{ x: 900 }}
        data-testid="branch-table"
      />
    </>
  );
}

/** Shown above a list whose rows each need a branch, while the store has none. */
function NeedBranch({ show }: { show: boolean }) {
  const { t } = useTranslation('pos');
  return show ? <Alert type="info" showIcon title={t('pos:needBranch')} style={{ marginBottom: 16 }} data-testid="pos-need-branch" /> : null;
}

export function PosUnitTable({ storeId, canEdit, loading, warehouseName, rows, noBranch }: ListProps & { rows: PosUnitRow[]; noBranch: boolean }) {
  const { t } = useTranslation(['pos', 'common']);
  const navigate = useNavigate();
  const [remove] = useDeletePosUnitMutation();

  const onDelete = async (p: PosUnitRow) => {
    if (!(await confirmDelete('posUnits', p.posNo))) return;
    try {
      await remove({ id: storeId, posUnitId: p.id }).unwrap();
      notifySuccess(t('pos:posUnits.deleted'));
    } catch (e) {
      notifyRefusal(e, t, 'pos', { fallback: 'pos:errors.delete_failed' });
    }
  };

  const columns = [
    { title: t('pos:fields.posNo'), dataIndex: 'posNo' },
    { title: t('pos:fields.branch'), render: (_: unknown, p: PosUnitRow) => branchOf(p) },
    {
      title: t('pos:fields.warehouse'),
      render: (_: unknown, p: PosUnitRow) => (
        <Space size={4} wrap>
          <span>{warehouseName(p.effectiveWarehouseId)}</span>
          {p.warehouseId === 0 ? <Tag>{t('pos:posUnits.fromBranch')}</Tag> : null}
        </Space>
      ),
    },
    ...(canEdit
      ? [
          actionsColumn<PosUnitRow>(t('pos:fields.actions'), (p) => (
            <RowActions testId={`pos-unit-${p.id}`} onEdit={() => navigate(`/${storeId}/pos-setting/pos-unit/${p.id}/edit`)} onDelete={() => void onDelete(p)} />
          )),
        ]
      : []),
  ];

  return (
    <>
      <NeedBranch show={noBranch} />
      <ListHead
        hint={t('pos:posUnits.hint')}
        action={
          canEdit ? (
            <AddButton label={t('pos:posUnits.create')} testId="pos-unit-create" onClick={() => navigate(`/${storeId}/pos-setting/pos-unit/create`)} blocked={noBranch ? t('pos:needBranch') : null} />
          ) : null
        }
      />
      <Table<PosUnitRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('pos:posUnits.empty') }}
        scroll={{ x: 640 }}
        data-testid="pos-unit-table"
      />
    </>
  );
}

/** Cashiers and sellers: one list, two kinds. */
export function PeopleTable({
  kind,
  storeId,
  canEdit,
  loading,
  rows,
  noBranch,
}: Omit<ListProps, 'warehouseName'> & { kind: 'cashiers' | 'sellers'; rows: PosPersonRow[]; noBranch: boolean }) {
  const { t } = useTranslation(['pos', 'common']);
  const navigate = useNavigate();
  const [removeCashier] = useDeleteCashierMutation();
  const [removeSeller] = useDeleteSellerMutation();
  const one = kind === 'cashiers' ? 'cashier' : 'seller';

  const onDelete = async (p: PosPersonRow) => {
    if (!(await confirmDelete(kind, p.name))) return;
    try {
      if (kind === 'cashiers') await removeCashier({ id: storeId, cashierId: p.id }).unwrap();
      else await removeSeller({ id: storeId, sellerId: p.id }).unwrap();
      notifySuccess(t(`pos:${kind}.deleted`));
    } catch (e) {
      notifyRefusal(e, t, 'pos', { fallback: 'pos:errors.delete_failed' });
    }
  };

  const columns = [
    { title: t('pos:fields.name'), dataIndex: 'name' },
    { title: t('pos:fields.email'), dataIndex: 'email' },
    ...(kind === 'sellers'
      ? [
          { title: t('pos:fields.tel'), dataIndex: 'tel', render: (v: string) => v || '–' },
          { title: t('pos:fields.code'), dataIndex: 'code', render: (v: string) => v || '–' },
        ]
      : []),
    { title: t('pos:fields.branch'), render: (_: unknown, p: PosPersonRow) => branchOf(p) },
    { title: t('pos:fields.status'), dataIndex: 'status', render: (s: string) => <StatusTag status={s} /> },
    ...(canEdit
      ? [
          actionsColumn<PosPersonRow>(t('pos:fields.actions'), (p) => (
            <RowActions testId={`${one}-${p.id}`} onEdit={() => navigate(`/${storeId}/pos-setting/${one}/${p.id}/edit`)} onDelete={() => void onDelete(p)} />
          )),
        ]
      : []),
  ];

  return (
    <>
      <NeedBranch show={noBranch} />
      <ListHead
        hint={t(`pos:${kind}.hint`)}
        action={
          canEdit ? (
            <AddButton label={t(`pos:${kind}.create`)} testId={`${one}-create`} onClick={() => navigate(`/${storeId}/pos-setting/${one}/create`)} blocked={noBranch ? t('pos:needBranch') : null} />
          ) : null
        }
      />
      <Table<PosPersonRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t(`pos:${kind}.empty`) }}
        scroll={{ x: kind === 'sellers' ? 900 : 720 }}
        data-testid={`${one}-table`}
      />
    </>
  );
}

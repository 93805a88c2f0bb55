import { Alert, Button, Card, Checkbox, Form, Input, Result, Space, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { useAppSelector } from '@/app/hooks';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { useCan } from '@/shared/useCan';
import { useCreateRoleMutation, useGetRoleQuery, useUpdateRoleMutation } from './api';
import {
  ACTIONS,
  cellId,
  checkRoleName,
  fromKeys,
  grantable,
  groupState,
  impliedCells,
  isTicked,
  MATRIX,
  ROLE_ERRORS,
  ROLE_NAME_MAX,
  roleRefusalKey,
  toggle,
  toggleGroup,
  toKeys,
  type Action,
  type MatrixGroup,
  type MatrixRow,
  type Selection,
} from './matrix';
import { ROLES } from './api';

interface Values {
  name: string;
  permissions: Selection;
}

/** A line of the matrix's table: a group's heading, or one of its rows. */
interface Line {
  key: string;
  group: MatrixGroup;
  row?: MatrixRow;
}

const LINES: Line[] = MATRIX.flatMap((g) => [{ key: `group-${g.id}`, group: g }, ...g.rows.map((r) => ({ key: r.id, group: g, row: r }))]);

interface MatrixProps {
  /** Set by Form.Item. */
  value?: Selection;
  onChange?: (v: Selection) => void;
  readOnly: boolean;
  /** Whether the member may tick a cell (unticking is always allowed). */
  may: (r: MatrixRow, a: Action) => boolean;
}

/** The permission matrix: groups as headings, a row per resource, a column per action;
 * scrolls sideways on a narrow screen with the resource's name kept in view. */
function PermissionMatrix({ value = {}, onChange, readOnly, may }: MatrixProps) {
  const { t } = useTranslation(['roles', 'common']);
  const implied = impliedCells(value);
  const set = (v: Selection) => onChange?.(v);

  const cell = (r: MatrixRow, a: Action) => {
    if (!r.actions.includes(a)) return null;
    const ticked = isTicked(value, r.id, a);
    const given = implied.has(cellId(r.id, a));
    const allowed = may(r, a);
    const others = r.actions.filter((x) => x !== 'all');
    const partly = a === 'all' && !ticked && others.length > 1 && others.some((x) => isTicked(value, r.id, x));
    const box = (
      <Checkbox
        checked={ticked || given}
        indeterminate={partly}
        disabled={readOnly || given || (!ticked && !allowed)}
        onChange={(e) => set(toggle(value, r.id, a, e.target.checked))}
        aria-label={`${t(`roles:rows.${r.id}`)}: ${t(`roles:actions.${a}`)}`}
        data-testid={`perm-${r.id}-${a}`}
      />
    );
    const why = readOnly ? null : given ? t('roles:form.implied') : !ticked && !allowed ? t('roles:form.notYours') : null;
    return why ? <Tooltip title={why}>{box}</Tooltip> : box;
  };

  const heading = (g: MatrixGroup) => {
    const state = groupState(value, g.id);
    return (
      <Space wrap>
        <Typography.Text strong>{t(`roles:groups.${g.id}`)}</Typography.Text>
        {readOnly ? null : (
          <Checkbox
            checked={state.all}
            indeterminate={!state.all && state.some}
            onChange={(e) => set(toggleGroup(value, g.id, e.target.checked, may))}
            data-testid={`perm-group-${g.id}`}
          >
            {t('roles:form.selectAll')}
          </Checkbox>
        )}
      </Space>
    );
  };

  const columns = [
    {
      title: t('roles:form.resource'),
      key: 'resource',
      fixed: 'left' as const,
      width: 200,
      onCell: (l: Line) => ({ colSpan: l.row ? 1 : ACTIONS.length + 1 }),
      render: (_: unknown, l: Line) => (l.row ? t(`roles:rows.${l.row.id}`) : heading(l.group)),
    },
    ...ACTIONS.map((a) => ({
      title: t(`roles:actions.${a}`),
      key: a,
      align: 'center' as const,
      width: 84,
      onCell: (l: Line) => ({ colSpan: l.row ? 1 : 0 }),
      render: (_: unknown, l: Line) => (l.row ? cell(l.row, a) : null),
    })),
  ];

  return (
    <Table<Line>
      rowKey="key"
      size="small"
      bordered
      columns={columns}
      dataSource={LINES}
      pagination={false}
      onRow={(l) => (l.row ? {} : { style: { background: '#fafafa' } })}
      scroll={{ x: 200 + 84 * ACTIONS.length }}
      data-testid="permission-matrix"
    />
  );
}

/** Whether two key lists hold the same keys. */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((k) => y.has(k));
}

/** /setting/role-permission-create and /setting/role-permission-edit/{roleId}: a role's name
 * and its rights in the permission matrix. Built-in roles open read-only. */
export default function RoleFormPage() {
  const { t } = useTranslation(['roles', 'common']);
  const { storeId, roleId } = useParams();
  const id = Number(storeId);
  const editing = roleId !== undefined;
  const rid = Number(roleId);
  const valid = !editing || (Number.isInteger(rid) && rid > 0);
  const { data: role, isLoading, isError } = useGetRoleQuery({ id, roleId: rid }, { skip: !editing || !valid });
  const [create, { isLoading: creating }] = useCreateRoleMutation();
  const [update, { isLoading: updating }] = useUpdateRoleMutation();
  const login = useAppSelector((s) => (storeId ? s.session.stores[storeId] : undefined));
  const canManage = useCan(ROLES);
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const rule = useCheck();
  const list = `/${id}/setting/role-permission-list`;
  const readOnly = !canManage || Boolean(role?.builtIn);
  const level = login?.permission ?? '';
  const granted = login?.permissions ?? [];
  const may = (r: MatrixRow, a: Action) => grantable(r, a, level, granted);

  const submit = async (v: Values) => {
    const name = v.name.trim();
    const permissions = toKeys(v.permissions ?? {});
    try {
      if (editing) {
        // Unchanged rights are not sent: the server checks only the rights that are.
        const changed = !role || !sameKeys(permissions, role.permissions);
        await update({ id, roleId: rid, rolePatchInput: changed ? { name, permissions } : { name } }).unwrap();
      } else {
        await create({ id, roleInput: { name, permissions } }).unwrap();
      }
      notifySuccess(t(editing ? 'roles:form.updated' : 'roles:form.created'));
      navigate(list);
    } catch (e) {
      if (showServerErrors(e, form, t, ROLE_ERRORS)) return;
      const refusal = roleRefusalKey(apiError(e)?.code);
      if (refusal) notifyError(t(refusal));
      else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('roles:errors.save_failed'));
    }
  };

  if (!valid || isError) {
    return (
      <Result
        status="404"
        title={t('roles:form.notFound')}
        extra={
          <Button type="primary" onClick={() => navigate(list)}>
            {t('roles:form.back')}
          </Button>
        }
        data-testid="role-not-found"
      />
    );
  }
  if (editing && (isLoading || !role)) return <Card loading />;

  const title = !editing ? 'roles:form.createTitle' : readOnly ? 'roles:form.viewTitle' : 'roles:form.editTitle';
  const initialValues: Values = {
    name: role ? (role.builtIn ? t(`common:permission.${role.name}`, { defaultValue: role.name }) : role.name) : '',
    permissions: role ? fromKeys(role.permissions) : {},
  };

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t(title)}</h1>
      </div>
      {readOnly ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(role?.builtIn ? 'roles:form.builtInNote' : 'roles:form.readOnlyNote')}
          data-testid="role-read-only"
        />
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit} initialValues={initialValues} disabled={readOnly} data-testid="role-form" scrollToFirstError>
        <Form.Item name="name" label={t('roles:fields.name')} rules={readOnly ? [] : [rule(checkRoleName)]} style={{ maxWidth: 480 }}>
          <Input
            placeholder={t('roles:fields.namePlaceholder')}
            count={{ show: !readOnly, max: ROLE_NAME_MAX, strategy: (s) => [...s].length }}
            data-testid="field-name"
          />
        </Form.Item>
        <Form.Item
          name="permissions"
          label={t('roles:fields.permissions')}
          extra={readOnly ? null : t('roles:form.permissionsHint')}
          rules={
            readOnly
              ? []
              : [
                  {
                    validator: (_: unknown, v: Selection | undefined) =>
                      toKeys(v ?? {}).length > 0 ? Promise.resolve() : Promise.reject(new Error(t('roles:validation.permissions_required'))),
                  },
                ]
          }
        >
          <PermissionMatrix readOnly={readOnly} may={may} />
        </Form.Item>
        <Space wrap>
          <Button onClick={() => navigate(list)} disabled={false} data-testid="role-back">
            {t(readOnly ? 'common:actions.back' : 'common:actions.cancel')}
          </Button>
          {readOnly ? null : (
            <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="role-save">
              {t('common:actions.save')}
            </Button>
          )}
        </Space>
      </Form>
    </Card>
  );
}

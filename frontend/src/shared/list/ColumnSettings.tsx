// The "Columns" button of a table: tick the columns to show, move them up or down.
import { Button, Checkbox, Popover, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { moved, NO_PREFS, ordered, toggled, type ColumnPrefs } from './columns';
import './styles';

export function ColumnSettings({ columns, prefs, onChange }: { columns: { key: string; title: string }[]; prefs: ColumnPrefs; onChange: (next: ColumnPrefs) => void }) {
  const { t } = useTranslation('common');
  const keys = columns.map((c) => c.key);
  const title = (k: string) => columns.find((c) => c.key === k)?.title ?? k;
  const order = ordered(keys, prefs);
  const content = (
    <div className="bo-columns-menu" data-testid="columns-menu">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('list.columnsHint')}
      </Typography.Text>
      {order.map((k, i) => (
        <div key={k} className="bo-columns-menu-row">
          <Checkbox checked={!prefs.hidden.includes(k)} onChange={() => onChange(toggled(keys, prefs, k))} data-testid={`column-${k}-shown`}>
            {title(k)}
          </Checkbox>
          <span>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => onChange(moved(keys, prefs, k, -1))} aria-label={t('list.moveUp', { name: title(k) })} data-testid={`column-${k}-up`} />
            <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === order.length - 1} onClick={() => onChange(moved(keys, prefs, k, 1))} aria-label={t('list.moveDown', { name: title(k) })} data-testid={`column-${k}-down`} />
          </span>
        </div>
      ))}
      <Button size="small" type="link" onClick={() => onChange(NO_PREFS)} data-testid="columns-reset" style={{ alignSelf: 'flex-start', padding: 0 }}>
        {t('list.resetColumns')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" content={content} title={t('list.columns')}>
      <Button icon={<SettingOutlined />} data-testid="columns-open">
        {t('list.columns')}
      </Button>
    </Popover>
  );
}

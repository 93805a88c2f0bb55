// A list's filters: on a desktop in a row; on a phone the search stays in sight and the
// other filters fold into a drawer behind a button that counts those in force.
import { useState, type ReactNode } from 'react';
import { Badge, Button, Drawer } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '@/app/layouts/useDevice';
import './styles';

export interface FiltersProps {
  /** The search box, always in sight (none when the layout's bar searches). */
  search?: ReactNode;
  /** How many of the folded filters are in force. */
  active: number;
  /** Clears every filter (shown when one is in force). */
  onClear?: () => void;
  /** The other filters. */
  children: ReactNode;
  'data-testid'?: string;
}

export function Filters({ search, active, onClear, children, ...rest }: FiltersProps) {
  const { t } = useTranslation('common');
  const mobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const testId = rest['data-testid'] ?? 'filters';
  if (!mobile) {
    return (
      <div className="bo-filters" data-testid={testId}>
        {search}
        {children}
        {onClear && active > 0 ? (
          <Button type="link" onClick={onClear} data-testid="filter-clear">
            {t('list.clearFilters')}
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <div className="bo-filters" data-testid={testId}>
      {search ? <div className="bo-filters-search">{search}</div> : null}
      <Badge count={active} size="small" offset={[-4, 4]}>
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)} aria-label={t('list.filters')} data-testid="filters-open">
          {search ? null : t('list.filters')}
        </Button>
      </Badge>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        placement="bottom"
        size="auto"
        title={active > 0 ? t('list.filtersInForce', { count: active }) : t('list.filters')}
        className="bo-filters-drawer"
        data-testid="filters-drawer"
        extra={
          onClear && active > 0 ? (
            <Button type="link" onClick={onClear} data-testid="filter-clear">
              {t('list.clearFilters')}
            </Button>
          ) : null
        }
        footer={
          <Button type="primary" block onClick={() => setOpen(false)} data-testid="filters-done">
            {t('list.showResults')}
          </Button>
        }
      >
        <div className="bo-filters-stack">{children}</div>
      </Drawer>
    </div>
  );
}

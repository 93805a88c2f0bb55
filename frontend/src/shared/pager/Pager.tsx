import { useState } from 'react';
import { Button, InputNumber, Space } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { clampPage, pageItems } from './pageItems';

export interface PagerProps {
  page: number;
  pages: number;
  total: number;
  onChange: (page: number) => void;
}

/** The list pager: 10 per page by default, at most 7 page buttons, a clamped page input. */
export function Pager({ page, pages, total, onChange }: PagerProps) {
  const { t } = useTranslation('common');
  const [jump, setJump] = useState<number | null>(null);
  const go = (p: number) => onChange(clampPage(p, pages));
  return (
    <nav aria-label={t('pager.label')} className="bo-pager" data-testid="pager">
      <Space wrap>
        <span className="bo-pager-total">{t('pager.total', { count: total })}</span>
        <Button size="small" icon={<LeftOutlined />} disabled={page <= 1} onClick={() => go(page - 1)} aria-label={t('pager.previous')} />
        {pageItems(page, pages).map((item) =>
          typeof item === 'number' ? (
            <Button
              key={item}
              size="small"
              type={item === page ? 'primary' : 'default'}
              aria-current={item === page ? 'page' : undefined}
              onClick={() => go(item)}
            >
              {item}
            </Button>
          ) : (
            <span key={item} className="bo-pager-ellipsis" aria-hidden>
              …
            </span>
          ),
        )}
        <Button size="small" icon={<RightOutlined />} disabled={page >= pages} onClick={() => go(page + 1)} aria-label={t('pager.next')} />
        <InputNumber
          size="small"
          style={{ width: 72 }}
          aria-label={t('pager.goTo')}
          placeholder={t('pager.goTo')}
          value={jump}
          onChange={(v) => setJump(typeof v === 'number' ? v : null)}
          onPressEnter={() => {
            if (jump !== null) go(jump);
            setJump(null);
          }}
        />
      </Space>
    </nav>
  );
}

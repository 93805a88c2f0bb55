// A screen's actions. At the head of a list: on a phone, the one primary action in sight and
// the rest behind a "more" button; on a desktop, all in a row. At the foot of a detail or a
// form: on a phone, a bar fixed at the bottom of the screen, within the thumb's reach.
import { useState, type ReactNode } from 'react';
import { Button, Drawer, Space } from 'antd';
import { MoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '@/app/layouts/useDevice';
import './styles';

export function HeadActions({ primary, children }: { primary?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation('common');
  const mobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const more = Array.isArray(children) ? children.some(Boolean) : Boolean(children);
  if (!mobile) {
    return (
      <Space wrap>
        {children}
        {primary}
      </Space>
    );
  }
  return (
    <Space>
      {primary}
      {more ? (
        <>
          <Button icon={<MoreOutlined />} onClick={() => setOpen(true)} aria-label={t('list.moreActions')} data-testid="more-actions" />
          {/* Kept mounted once opened: an action's own dialog lives on after the menu closes. */}
          <Drawer open={open} onClose={() => setOpen(false)} placement="bottom" size="auto" title={t('list.moreActions')}>
            <div className="bo-more-menu" onClickCapture={() => setOpen(false)}>
              {children}
            </div>
          </Drawer>
        </>
      ) : null}
    </Space>
  );
}

/** Actions that sit at the foot: in the flow on a desktop, fixed at the bottom on a phone
 * (with room kept under the page so nothing hides behind the bar). */
export function BottomBar({ children, ...rest }: { children: ReactNode; 'data-testid'?: string }) {
  const mobile = useIsMobile();
  return (
    <>
      <div className="bo-bottom-bar" data-testid={rest['data-testid']}>
        {children}
      </div>
      {mobile ? <div className="bo-bottom-space" /> : null}
    </>
  );
}

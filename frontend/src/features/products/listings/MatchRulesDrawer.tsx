import { useState } from 'react';
import { Button, Drawer, Input, List, Select, Space, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useAddMatchRuleMutation, useDeleteMatchRuleMutation, useListMatchRulesQuery } from '@/features/marketplaces/api';
import { notifyRefusal } from '@/shared/refusal';

/** The store's matching rules: prefixes and suffixes its seller SKUs put around our codes,
 * ignored by automatic links (shops often list one SKU several times). */
export function MatchRulesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['products', 'common']);
  const { data } = useListMatchRulesQuery(undefined, { skip: !open });
  const [add, { isLoading }] = useAddMatchRuleMutation();
  const [remove] = useDeleteMatchRuleMutation();
  const [kind, setKind] = useState('prefix');
  const [text, setText] = useState('');

  const submit = async () => {
    if (!text.trim()) return;
    try {
      await add({ matchRuleInput: { kind, text: text.trim() } }).unwrap();
      setText('');
    } catch (e) {
      notifyRefusal(e, t, 'products', { rule: () => t('products:listings.rules.invalid') });
    }
  };

  return (
    <Drawer open={open} onClose={onClose} title={t('products:listings.rules.title')} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('products:listings.rules.hint')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <Select
          value={kind}
          onChange={setKind}
          style={{ width: 130 }}
          options={['prefix', 'suffix'].map((k) => ({ value: k, label: t(`products:listings.rules.${k}`) }))}
          data-testid="match-rule-kind"
        />
        <Input value={text} maxLength={30} onChange={(e) => setText(e.target.value)} onPressEnter={() => void submit()} placeholder={t('products:listings.rules.text')} data-testid="match-rule-text" />
        <Button type="primary" onClick={() => void submit()} loading={isLoading} data-testid="match-rule-add">
          {t('products:listings.rules.add')}
        </Button>
      </Space.Compact>
      <List
        dataSource={data?.data ?? []}
        locale={{ emptyText: t('products:listings.rules.empty') }}
        renderItem={(r) => (
          <List.Item
            actions={[
              <Button key="delete" type="text" icon={<DeleteOutlined />} aria-label={t('common:actions.delete')} onClick={() => void remove({ id: r.id })} />,
            ]}
          >
            <Space>
              <Typography.Text type="secondary">{t(`products:listings.rules.${r.kind}`)}</Typography.Text>
              <Typography.Text code>{r.text}</Typography.Text>
            </Space>
          </List.Item>
        )}
        data-testid="match-rules"
      />
    </Drawer>
  );
}

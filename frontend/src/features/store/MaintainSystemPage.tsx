import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { useGetMaintainingQuery } from './api';

export default function MaintainSystemPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const { data, refetch, isFetching } = useGetMaintainingQuery();
  return (
    <div className="bo-center">
      <Result
        status="warning"
        title={t('maintenance.title')}
        subTitle={t('maintenance.message')}
        extra={
          <Button
            loading={isFetching}
            onClick={() => {
              void refetch().then((r) => {
                if (r.data && !r.data.maintaining) navigate('/choose-store', { replace: true });
              });
            }}
          >
            {data?.maintaining === false ? t('maintenance.continue') : t('maintenance.retry')}
          </Button>
        }
      />
    </div>
  );
}

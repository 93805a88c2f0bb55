import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';

import { currentStoreSet, loggedIn, storeEntered } from '@/app/session';
import { makeStore } from '@/app/store';
import { PhotosCard } from './PhotosCard';

// The server's photo rules, configured here to need three photos.
const RULES = { min_per_product: 3, max_per_product: 5, max_bytes: 5 * 1024 * 1024, max_per_upload: 200 };

function serveRules() {
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = (input as Request).url;
    const body = url.endsWith('/products/photo-rules') ? RULES : {};
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as jest.Mock;
}

function renderCard(count: number) {
  const store = makeStore();
  store.dispatch(loggedIn({ token: 'user', user: { id: 1, email: 'a@b.co', name: 'A' } }));
  store.dispatch(storeEntered({ storeId: 1, login: { token: 'store', permission: 'owner', permissions: [], roleName: 'owner', expiresAt: '' } }));
  store.dispatch(currentStoreSet(1));
  const photos = Array.from({ length: count }, (_, i) => ({ id: i + 1, url: `/api/products/photos/1/${i}.png`, width: 10, height: 10 }));
  render(
    <Provider store={store}>
      <PhotosCard productId={7} photos={photos} sizeChart={null} />
    </Provider>,
  );
}

const deleteButtons = () => Array.from(screen.getByTestId('photos').querySelectorAll('button.bo-photo-delete')) as HTMLButtonElement[];

describe('photos card', () => {
  it('follows the server minimum: warns under it and keeps photos from being deleted', async () => {
    serveRules();
    renderCard(2);
    expect(await screen.findByText('Add at least 3 photos: marketplaces list a product only with enough pictures')).toBeInTheDocument();
    await waitFor(() => expect(deleteButtons().every((b) => b.disabled)).toBe(true));
  });

  it('lets a photo go above the minimum', async () => {
    serveRules();
    renderCard(4);
    await waitFor(() => expect(deleteButtons()).toHaveLength(4));
    await waitFor(() => expect(deleteButtons().every((b) => !b.disabled)).toBe(true));
    expect(screen.queryByTestId('photo-need-more')).toBeNull();
  });
});

import { checkPicture, PICTURE_MAX_BYTES } from './picture';

test('pictures are .jpg, .jpeg or .png of 5 MB at most', () => {
  expect(checkPicture({ name: 'card.JPG', size: 1000, type: 'image/jpeg' })).toBeNull();
  expect(checkPicture({ name: 'card.jpeg', size: PICTURE_MAX_BYTES, type: '' })).toBeNull();
  expect(checkPicture({ name: 'card.png', size: 10, type: 'image/png' })).toBeNull();
  expect(checkPicture({ name: 'card.pdf', size: 10, type: 'application/pdf' })).toBe('photo_type');
  expect(checkPicture({ name: 'card.png', size: 10, type: 'image/gif' })).toBe('photo_type');
  expect(checkPicture({ name: 'card.heic', size: 10, type: '' })).toBe('photo_type');
  expect(checkPicture({ name: 'big.jpg', size: PICTURE_MAX_BYTES + 1, type: 'image/jpeg' })).toBe('photo_too_large');
});

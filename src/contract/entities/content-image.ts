import { defineEntity } from '../entity';

/** The public upload folder of images in content (api-contract §7: `cms`). */
export const CONTENT_IMAGE_FOLDER = 'cms';

/**
 * An image inserted in rich text (About Us, Terms, subject content), stored as a file of its
 * own so that the HTML refers to it by URL instead of carrying it as base64. Our extension:
 * `CMS/Images/addimage.php` takes the file (multipart, field `image`; a large one goes ahead
 * by tus like any file) and answers the stored file name as the new id, which is the image's
 * key: knowing the id is knowing the URL (`uploads/cms/<name>`), so the content that waits
 * for the image needs nothing but the id map (src/contract/rich-text/rich-text-images.ts).
 * `CMS/Images/fetchimages.php` lists them; the client pulls it to learn that the server has
 * the extension. No screens, no update, no delete.
 */
export const contentImageEntity = defineEntity({
  name: 'contentImage',
  table: 'content_images',
  key: 'image',
  title: 'image',
  names: { one: 'image', One: 'Image', many: 'images', Many: 'Images' },
  fields: {
    image: {
      kind: 'file',
      label: 'Image',
      required: true,
      wire: 'image',
      // A photo from a tablet's camera fits; past 4 MB it travels in resumable chunks.
      file: {
        folder: CONTENT_IMAGE_FOLDER,
        types: ['jpg', 'jpeg', 'png', 'gif'],
        maxBytes: 10 * 1024 * 1024,
      },
      hint: 'jpg, png or gif, up to 10 MB',
    },
  },
  api: {
    list: 'CMS/Images/fetchimages.php',
    listField: 'images',
    add: 'CMS/Images/addimage.php',
    encoding: 'multipart',
  },
  routes: {},
  list: { columns: [], search: ['image'], sort: { field: 'image', dir: 'asc' }, pageSize: 10 },
  form: ['image'],
  extension: true,
});

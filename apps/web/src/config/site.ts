export const BRAND_NAME = 'Stagedoor';

/** The social account the footer links to and the founders page sends applicants to. */
export const SOCIAL_ACCOUNT = {
  network: 'Instagram',
  handle: '@stagedoor.live',
  url: 'https://www.instagram.com/stagedoor.live',
} as const;

export const SUPPORT_EMAIL = 'support@stagedoor.live';

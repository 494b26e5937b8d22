import type { MailTexts } from './types.ts';

export const zh: MailTexts = {
  colon: '：',
  dir: 'ltr',
  greeting: (first) => (first ? `${first}，您好：` : '您好：'),
  verify: {
    subject: '验证您的电子邮件地址',
    intro: '请确认您的电子邮件地址以完成账户创建。',
    codeLabel: '您的验证码是',
    action: '验证我的邮箱',
    expiry: '验证码在 24 小时内有效。',
  },
  reset: {
    subject: '重置您的密码',
    intro: '我们收到了重置您账户密码的请求。',
    codeLabel: '您的重置验证码是',
    action: '设置新密码',
    expiry: '重置验证码在 1 小时内有效。',
  },
  invite: {
    subject: (p) => `邀请您加入 ${p}`,
    intro: (p) => `您受邀在 ${p} 上创建账户。`,
    action: '创建我的账户',
    expiry: (days) => `邀请在 ${days} 天内有效。`,
    ignore: '如果您没有预期收到此邀请，请忽略此邮件。',
  },
  locked: {
    subject: '您的账户已被锁定',
    intro:
      '由于连续 100 次登录失败，我们已锁定您的账户。如果这不是您本人的操作，可能有人正在试图猜测您的密码。',
    advice: '账户将在 24 小时内自动解锁，您的管理员也可以立即为您解锁。之后，您可以设置新密码。',
    action: '前往登录',
  },
  ignore: '如果这不是您本人的操作，请忽略此邮件。',
  signOff: (p) => `${p} 团队`,
};

import { createSingleAgentAccount, setAccountActive, setAccountRole } from './auth.admin-accounts';
import {
  archiveLink,
  archiveUserOf,
  deleteAccount,
  exportArchive,
  exportData,
} from './auth.account-data';
import { removeExpiredSessionsAndCodes } from './auth.cleanup';
import type { AuthDeps } from './auth.deps';
import { login, logout, switchRole } from './auth.login';
import { requestPasswordReset, resetPassword } from './auth.password-reset';
import {
  changePassword,
  getProfile,
  listSessions,
  revokeOtherSessions,
  updateProfile,
} from './auth.profile';
import { completeRegistration, sendOtp } from './auth.register';
import {
  countSingleAgentAccounts,
  countUsers,
  findAccountNames,
  getUser,
  isAccountActive,
  isSingleAgentUser,
  listAccounts,
  newestUsers,
  platformAccount,
  singleAgentOf,
} from './auth.users';

export type { AuthContext, Authenticator } from './auth.authenticator';
export type { AuthDeps } from './auth.deps';
export type { Account } from './auth.users';

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * Accounts: e-mail codes, registration, sign-in, sessions and role mode, the user's own account,
 * and accounts as an admin manages them. Each use case is a function of its own file taking its
 * dependencies; this binds them to `deps` once, for the routes and the other features. Functions
 * return data and throw AppErrors (auth.errors.ts); the routes word the answers in the caller's
 * language.
 */
export function createAuthService(deps: AuthDeps) {
  const bind =
    <Input, Result>(useCase: (deps: AuthDeps, input: Input) => Result) =>
    (input: Input): Result =>
      useCase(deps, input);
  return {
    sendOtp: bind(sendOtp),
    completeRegistration: bind(completeRegistration),
    login: bind(login),
    logout: bind(logout),
    switchRole: bind(switchRole),
    getUser: bind(getUser),
    isSingleAgentUser: bind(isSingleAgentUser),
    singleAgentOf: bind(singleAgentOf),
    isAccountActive: bind(isAccountActive),
    platformAccount: bind(platformAccount),
    countSingleAgentAccounts: bind(countSingleAgentAccounts),
    createSingleAgentAccount: bind(createSingleAgentAccount),
    listAccounts: bind(listAccounts),
    findAccountNames: bind(findAccountNames),
    setAccountActive: bind(setAccountActive),
    setAccountRole: bind(setAccountRole),
    countUsers: (since?: Date) => countUsers(deps, since),
    newestUsers: bind(newestUsers),
    removeExpiredSessionsAndCodes: bind(removeExpiredSessionsAndCodes),
    getProfile: bind(getProfile),
    updateProfile: bind(updateProfile),
    changePassword: bind(changePassword),
    listSessions: bind(listSessions),
    revokeOtherSessions: bind(revokeOtherSessions),
    requestPasswordReset: bind(requestPasswordReset),
    resetPassword: bind(resetPassword),
    exportData: bind(exportData),
    exportArchive: bind(exportArchive),
    archiveLink: bind(archiveLink),
    archiveUserOf: bind(archiveUserOf),
    deleteAccount: bind(deleteAccount),
  };
}

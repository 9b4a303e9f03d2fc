import { useUser } from '@/features/auth/api/get-user';

/** The auth state for guards and headers: the user (null when signed out) and whether it is known yet. */
export function useAuth() {
  const { data, isPending } = useUser();
  return { user: data ?? null, isLoading: isPending };
}

import type {
  ProfileResponse,
  UpdateProfileInput,
  UpdateProfileResponse,
} from '@contrateia/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userQueryKey } from '@/features/auth/api/get-user';
import { apiRequest } from '@/lib/api-client';
import { saveUser } from '@/lib/session';

export const profileQueryKey = ['auth', 'profile'] as const;

/** The signed-in user and the language kept on the account (mails go out in it). */
export function getProfile(): Promise<ProfileResponse> {
  return apiRequest<ProfileResponse>('/profile');
}

export function useProfile() {
  return useQuery({ queryKey: profileQueryKey, queryFn: getProfile });
}

export function updateProfile(input: UpdateProfileInput): Promise<UpdateProfileResponse> {
  return apiRequest<UpdateProfileResponse>('/profile', { method: 'PATCH', body: input });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user, language }) => {
      // The header shows the name: the new one at once, and after a reload.
      saveUser(user);
      queryClient.setQueryData(userQueryKey, user);
      queryClient.setQueryData<ProfileResponse>(profileQueryKey, { user, language });
    },
  });
}

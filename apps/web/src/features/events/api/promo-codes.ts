import { ZPromoCode, ZPromoCodeList, type CreatePromoCodeRequest } from '@stagedoor/shared/promo-codes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const promoCodesPath = (eventId: number) => `/events/${eventId}/promo-codes`;

/** GET /events/{id}/promo-codes: the event's codes and how often each was used (its creator only). */
export function usePromoCodes(eventId: number) {
  return useQuery({
    queryKey: queryKeys.promoCodes.list(eventId),
    queryFn: ({ signal }) => api.get(promoCodesPath(eventId), { schema: ZPromoCodeList, signal }),
  });
}

/** POST /events/{id}/promo-codes: a new code, listed with the others once made. */
export function useCreatePromoCode(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreatePromoCodeRequest) =>
      api.post(promoCodesPath(eventId), request, { schema: ZPromoCode }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.promoCodes.list(eventId) }),
  });
}

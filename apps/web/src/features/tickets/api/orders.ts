import { ZOrder } from '@stagedoor/shared/orders';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /orders: the signed-in account's orders. A failure is only logged (spec §8); the list stays empty. */
export function useMyOrders(accountId: number) {
  const orders = useQuery({
    queryKey: queryKeys.orders.mine(accountId),
    queryFn: ({ signal }) => api.get('/orders', { schema: z.array(ZOrder), signal }),
  });

  useEffect(() => {
    if (orders.error) console.error('Error fetching orders', orders.error);
  }, [orders.error]);

  return orders;
}

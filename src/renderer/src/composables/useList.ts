import type { PagedEndpointName, PagedInput, PagedItem } from '@shared/endpoints/table'
import type { ListRead } from '../lib/data/list-read'
import { useListsStore } from '../stores/lists'
import { useAccountApi } from './useAccountApi'

/** A shared list of the account that is active when the calling view is created. */
export function useList<N extends PagedEndpointName>(name: N, params: PagedInput<N>): ListRead<PagedItem<N>> {
  return useListsStore().list(useAccountApi(), name, params)
}

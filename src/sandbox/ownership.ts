/** Owner changes between users of the service (localtransfer), for domains and free DNS alike. */
import { badRequest } from './http-error'
import { ownerOut } from './wire'

interface Owned {
  domainid: number
  domainname: string
  username: string
  ownerMessage: string
}

export function checkUsername(username: string): void {
  if (!/^[a-z0-9][a-z0-9_-]{1,63}$/i.test(username)) throw badRequest('username is not a valid user name.')
}

/** Hands the item to another user; answers with the message the new owner is shown. */
export function changeOwner(item: Owned, to: { username: string; message?: string | undefined }) {
  item.username = to.username
  item.ownerMessage = to.message ?? ''
  return ownerOut(item, true)
}

import { isFamily, type Family } from '@pago/domain/family-codes';
import { useParams } from 'react-router';

/** The :category of the current route. The router's category guard has already turned away anything else. */
export function useCategory(): Family {
  const { category } = useParams();
  if (!isFamily(category)) throw new Error(`Route without a valid :category (${String(category)})`);
  return category;
}

/**
 * Transbank's published integration test cards and what their integration environment answers
 * (transbankdevelopers.cl, 'Cómo empezar'). Any other number is declined as an invalid card.
 */
export interface TestCard {
  brand: string;
  approved: boolean;
  /** VD débito, VN crédito normal, VP prepago. */
  paymentTypeCode: 'VD' | 'VN' | 'VP';
}

export const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4051885600446623': { brand: 'VISA crédito', approved: true, paymentTypeCode: 'VN' },
  '370000000002032': { brand: 'AMEX', approved: true, paymentTypeCode: 'VN' },
  '5186059559590568': { brand: 'MASTERCARD crédito', approved: false, paymentTypeCode: 'VN' },
  '4051884239937763': { brand: 'Redcompra débito', approved: true, paymentTypeCode: 'VD' },
  '4511346660037060': { brand: 'Redcompra débito', approved: true, paymentTypeCode: 'VD' },
  '5186008541233829': { brand: 'Redcompra débito', approved: false, paymentTypeCode: 'VD' },
  '4051886000056590': { brand: 'VISA prepago', approved: true, paymentTypeCode: 'VP' },
  '5186174110629480': { brand: 'MASTERCARD prepago', approved: false, paymentTypeCode: 'VP' },
};

export const cardDigits = (text: string) => text.replace(/\D/g, '');

/**
 * The answers' schemas (@pago/domain/schemas/answers, zod/mini), loaded on demand: the home checks call 1's answer with them
 * but must paint before they arrive (its JavaScript budget). Later screens import them directly.
 */
export const loadAnswerSchemas = () => import('@pago/domain/schemas/answers');

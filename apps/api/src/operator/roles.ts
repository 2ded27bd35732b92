// The permissions and roles are the domain's (packages/domain/src/operator-roles.ts), shared with the console.
export * from '@pago/domain/operator-roles';

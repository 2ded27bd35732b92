-- Call 2 in one round trip (decision 027): spends the captcha, then reads the member's listed products and opens a
-- session, one statement after the other. A replayed captcha answers null; a member's list notice, {notice}.
CREATE FUNCTION list_products(spent_signature text, spent_expires_at timestamptz, member_rut text, session_token_hash text)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  found_member uuid;
  found_notice text;
  opened_session uuid;
BEGIN
  INSERT INTO captcha_uses (signature, expires_at) VALUES (spent_signature, spent_expires_at) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  SELECT m.id, m.list_notice_code INTO found_member, found_notice FROM members m WHERE m.rut = member_rut;
  IF found_notice IS NOT NULL THEN
    RETURN json_build_object('notice', found_notice);
  END IF;
  INSERT INTO sessions (token_hash, rut) VALUES (session_token_hash, member_rut) RETURNING id INTO opened_session;
  -- Paid instalments stay for ever: only a credit's or the shares' still owed are read, every statement of a card
  -- (product-view.ts shows the latest), and nothing of a savings account.
  RETURN json_build_object('sessionId', opened_session, 'products', coalesce((
    SELECT json_agg(json_build_object(
      'product', json_build_object(
        'id', p.id, 'family', p.family, 'numeroProducto', p.numero_producto, 'permiteAbono', p.permite_abono,
        'permiteMultipleAbono', p.permite_multiple_abono, 'montoMinimoAbonoMultiple', p.monto_minimo_abono_multiple,
        'fechaVigenciaAbono', p.fecha_vigencia_abono, 'fechaFacturacion', p.fecha_facturacion),
      'instalments', coalesce((
        SELECT json_agg(json_build_object(
          'numeroCuota', i.numero_cuota, 'montoPendiente', i.monto_pendiente, 'pagoMinimo', i.pago_minimo,
          'fechaVencimiento', i.fecha_vencimiento, 'medioPago', i.medio_pago) ORDER BY i.fecha_vencimiento, i.numero_cuota)
        FROM instalments i
        WHERE i.product_id = p.id AND p.family <> 'AH' AND (p.family = 'TC' OR i.monto_pendiente > 0)), '[]'::json))
      ORDER BY p.family, p.numero_producto)
    FROM products p WHERE p.member_id = found_member), '[]'::json));
END
$$;

import { erf, erfcx } from "./erf";

/**
 * The branch points of "Let's Be Rational"'s initial guess as functions of x alone, so the guess
 * costs one evaluation of the normalised Black function (b_c, in closed form) instead of two.
 * With x <= 0 and s_c = sqrt(2|x|):
 *   b_c = b(x, s_c) = b_max (1 - erfcx(sqrt|x|)) / 2,           b_max = exp(x/2)
 *   s_l = s_c - b_c / b'(s_c) = s_c - sqrt(pi/2) (1 - erfcx(sqrt|x|))
 *   s_u = s_c + (b_max - b_c) / b'(s_c) = s_c + sqrt(pi/2) (1 + erfcx(sqrt|x|))
 *   b_l = b(x, s_l),  b_u = b(x, s_u): Jäckel's Remez-optimised rational approximations of
 *   b_l / b_max and b_u / b_max in s_c (four branches each, better than 1e-16 relative in exact
 *   arithmetic). They only choose the branch and place the interpolation nodes of the guess, whose
 *   own accuracy is about 1e-2 to 1e-8, so rounding at the 1e-16 level has no consequence.
 * Port of the reference implementation of 2024-02 (www.jaeckel.org/LetsBeRational.7z):
 *   Copyright © 2013-2024 Peter Jäckel. Permission to use, copy, modify, and distribute this
 *   software is freely granted, provided that this notice is preserved.
 *
 * @see docs/methodology.md#implied-volatility
 */

/**
 * 1 - erfcx(y) for y >= 0 without the cancellation of the direct form near 0: there
 * erfcx(y) = exp(y^2) (1 - erf(y)), so 1 - erfcx(y) = exp(y^2) erf(y) - expm1(y^2), whose
 * second term is at most 0.42 of the first for y <= 0.46875 (Cody's first interval).
 *
 * @example oneMinusErfcx(1e-8) // 1.1283791570766785e-8 (= 2y/sqrt(pi) - y^2 + ...)
 */
export function oneMinusErfcx(y: number): number {
  if (y <= 0.46875) {
    const y2 = y * y;
    return Math.exp(y2) * erf(y) - Math.expm1(y2);
  }
  return 1 - erfcx(y);
}

/**
 * b_l(x) / b_max(x) as a function of s_c = sqrt(2|x|) (Jäckel 2024, branches split at
 * |x| = 0.252, 3.45, 27).
 *
 * @example blOverBmax(Math.sqrt(2 * 0.5)) // b(-0.5, s_l) / exp(-0.25)
 */
export function blOverBmax(sc: number): number {
  if (sc < 2.6267851073127395) {
    if (sc < 0.7099295739719539) {
      // f = y^2 (c2 + y (c3 + y g)) for small y = s_c.
      const g =
        (8.074107237288286e-2 +
          sc * (9.80789117863589e-2 + sc * (3.9760631445677055e-2 + sc * (5.971692845958919e-3 + sc * (-6.40363993414798e-6 + 4.5425102093616064e-7 * sc))))) /
        (1 + sc * (1.8594977672287665 + sc * (1.365880147571179 + sc * (4.613270710865565e-1 + 6.125459704983172e-2 * sc))));
      return sc * sc * (0.07560996640296362 + sc * (sc * g - 0.09672719281339437));
    }
    return (
      (1.979573792759858e-9 +
        sc *
          (-2.7081288564685587e-8 +
            sc * (7.561014227254904e-2 + sc * (6.917130174466835e-2 + sc * (2.9537058950963018e-2 + sc * (6.584925270230231e-3 + 6.971140063983471e-4 * sc)))))) /
      (1 +
        sc *
          (2.194144852558658 +
            sc * (2.129710354999518 + sc * (1.1571483187179783 + sc * (3.783162225306046e-1 + sc * (7.171486244882935e-2 + 6.63619758278612e-3 * sc))))))
    );
  }
  if (sc < 7.348469228349534) {
    return (
      (-9.332511535483788e-5 +
        sc *
          (5.311803397279465e-4 +
            sc * (7.411485544834501e-2 + sc * (7.403965818682282e-2 + sc * (3.9225177407687606e-2 + sc * (1.002291337825409e-2 + 1.7012579407246055e-3 * sc)))))) /
      (1 +
        sc *
          (2.2217238132228134 +
            sc * (2.3441816707087404 + sc * (1.391232364627114 + sc * (5.323125844350184e-1 + sc * (1.1744005919716101e-1 + 1.6195405895930937e-2 * sc))))))
    );
  }
  // Tends to Phi(-sqrt(pi/2)) = 0.10504570272196864 as |x| -> infinity.
  return (
    (1.4500072297240604e-3 +
      sc *
        (-1.5116692485011196e-3 +
          sc * (7.168217831093633e-2 + sc * (3.9216108578204636e-2 + sc * (2.9342405658628445e-2 + sc * (5.183252617163152e-3 + 1.6930208078421475e-3 * sc)))))) /
    (1 +
      sc *
        (1.6176313502305415 +
          sc * (1.6823159175281532 + sc * (8.487830756737222e-1 + sc * (3.754374213737579e-1 + sc * (7.126137099644303e-2 + 1.6116992546788677e-2 * sc))))))
  );
}

/**
 * b_u(x) / b_max(x) as a function of s_c = sqrt(2|x|) (Jäckel 2024, branches split at
 * |x| = 0.3, 1.6, 19).
 *
 * @example buOverBmax(0) // 0.7899085945560627 = 1 - 2 Phi(-sqrt(pi/2))
 */
export function buOverBmax(sc: number): number {
  if (sc < 1.7888543819998317) {
    if (sc < 0.7745966692414833) {
      // f = c0 + y^2 (c2 + y g) for small y = s_c.
      const g =
        (-6.0630998812335614e-2 +
          sc * (-8.101194663712061e-2 + sc * (-4.2505564862438755e-2 + sc * (-8.988000094686869e-3 + sc * (-7.560307211044327e-6 + 4.387955662154015e-7 * sc))))) /
        (1 + sc * (1.8400371530721829 + sc * (1.5709283443886144 + sc * (6.89132454536114e-1 + 1.470317306172098e-1 * sc))));
      return 0.7899085945560628 + sc * sc * (0.06146168058051474 + sc * g);
    }
    return (
      (7.899094443575528e-1 +
        sc *
          (-1.2655410534988973 +
            sc * (-2.8803040699221003 + sc * (-2.693619868911326 + sc * (-1.1213067281643205 + sc * (-2.127779380169163e-1 + 5.14864459052998e-6 * sc)))))) /
      (1 + sc * (-1.6021222722060444 + sc * (-3.7242680976480704 + sc * (-3.2083117718907364 + sc * (-1.292233383593096 - 2.376232833405e-1 * sc)))))
    );
  }
  if (sc < 6.164414002968976) {
    return (
      (7.89906400489676e-1 +
        sc *
          (1.5993699253596663 +
            sc * (1.648172903914037 + sc * (9.82271881098692e-1 + sc * (3.631355796618694e-1 + sc * (7.82770362611796e-2 + 9.340430736453872e-3 * sc)))))) /
      (1 +
        sc *
          (2.02474070056404 +
            sc * (2.008745427910374 + sc * (1.1627561803056963 + sc * (4.2004672123723824e-1 + sc * (8.913086279388724e-2 + 1.0436767768858022e-2 * sc))))))
    );
  }
  // Tends to Phi(sqrt(pi/2)) = 0.8949542972780314 as |x| -> infinity.
  return (
    (7.911338259484194e-1 +
      sc *
        (1.2465373321088005 +
          sc * (1.3274742698053739 + sc * (6.950097057178468e-1 + sc * (3.059659442682285e-1 + sc * (6.022003633913529e-2 + 1.2905024445434484e-2 * sc)))))) /
    (1 +
      sc *
        (1.5811748671463468 +
          sc * (1.6014471324762964 + sc * (8.300401858368824e-1 + sc * (3.5307186381340155e-1 + sc * (6.959016841317585e-2 + 1.4419758064389e-2 * sc))))))
  );
}

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
        (8.0741072372882856924e-2 +
          sc * (9.8078911786358897272e-2 + sc * (3.9760631445677058375e-2 + sc * (5.9716928459589189876e-3 + sc * (-6.4036399341479799981e-6 + 4.5425102093616062245e-7 * sc))))) /
        (1 + sc * (1.8594977672287664353 + sc * (1.3658801475711790419 + sc * (4.6132707108655653215e-1 + 6.1254597049831720643e-2 * sc))));
      return sc * sc * (0.07560996640296361767172 + sc * (sc * g - 0.09672719281339436290858));
    }
    return (
      (1.9795737927598581235e-9 +
        sc * (-2.7081288564685588037e-8 + sc * (7.5610142272549044609e-2 + sc * (6.917130174466834016e-2 + sc * (2.9537058950963019803e-2 + sc * (6.5849252702302307774e-3 + 6.9711400639834715731e-4 * sc)))))) /
      (1 + sc * (2.1941448525586579756 + sc * (2.1297103549995181357 + sc * (1.1571483187179784072 + sc * (3.7831622253060456794e-1 + sc * (7.1714862448829349869e-2 + 6.6361975827861200167e-3 * sc))))))
    );
  }
  if (sc < 7.348469228349534) {
    return (
      (-9.3325115354837883291e-5 +
        sc * (5.3118033972794648837e-4 + sc * (7.4114855448345002595e-2 + sc * (7.4039658186822817454e-2 + sc * (3.9225177407687604785e-2 + sc * (1.0022913378254090083e-2 + 1.7012579407246055469e-3 * sc)))))) /
      (1 + sc * (2.2217238132228132256 + sc * (2.3441816707087403282 + sc * (1.3912323646271141826 + sc * (5.3231258443501838354e-1 + sc * (1.1744005919716101572e-1 + 1.6195405895930935811e-2 * sc))))))
    );
  }
  // Tends to Phi(-sqrt(pi/2)) = 0.10504570272196864 as |x| -> infinity.
  return (
    (1.4500072297240603183e-3 +
      sc * (-1.5116692485011195757e-3 + sc * (7.1682178310936334831e-2 + sc * (3.921610857820463493e-2 + sc * (2.9342405658628443931e-2 + sc * (5.1832526171631521426e-3 + 1.6930208078421474854e-3 * sc)))))) /
    (1 + sc * (1.6176313502305414664 + sc * (1.6823159175281531664 + sc * (8.4878307567372222113e-1 + sc * (3.7543742137375791321e-1 + sc * (7.126137099644302999e-2 + 1.6116992546788676159e-2 * sc))))))
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
        (-6.063099881233561706e-2 +
          sc * (-8.1011946637120604985e-2 + sc * (-4.2505564862438753828e-2 + sc * (-8.9880000946868691788e-3 + sc * (-7.5603072110443268356e-6 + 4.3879556621540147458e-7 * sc))))) /
        (1 + sc * (1.8400371530721828756 + sc * (1.5709283443886143691 + sc * (6.8913245453611400484e-1 + 1.4703173061720980923e-1 * sc))));
      return 0.7899085945560627246288 + sc * sc * (0.0614616805805147403487 + sc * g);
    }
    return (
      (7.8990944435755287611e-1 +
        sc * (-1.2655410534988972886 + sc * (-2.8803040699221003256 + sc * (-2.6936198689113258727 + sc * (-1.1213067281643205754 + sc * (-2.1277793801691629892e-1 + 5.1486445905299802703e-6 * sc)))))) /
      (1 + sc * (-1.6021222722060444448 + sc * (-3.7242680976480704555 + sc * (-3.2083117718907365085 + sc * (-1.2922333835930958583 - 2.3762328334050001161e-1 * sc)))))
    );
  }
  if (sc < 6.164414002968976) {
    return (
      (7.8990640048967596475e-1 +
        sc * (1.5993699253596663678 + sc * (1.6481729039140370242 + sc * (9.8227188109869200166e-1 + sc * (3.6313557966186936883e-1 + sc * (7.8277036261179606301e-2 + 9.3404307364538726214e-3 * sc)))))) /
      (1 + sc * (2.0247407005640401446 + sc * (2.0087454279103740489 + sc * (1.1627561803056961973 + sc * (4.2004672123723823581e-1 + sc * (8.9130862793887234546e-2 + 1.0436767768858021717e-2 * sc))))))
    );
  }
  // Tends to Phi(sqrt(pi/2)) = 0.8949542972780314 as |x| -> infinity.
  return (
    (7.91133825948419359e-1 +
      sc * (1.24653733210880042 + sc * (1.32747426980537386 + sc * (6.95009705717846778e-1 + sc * (3.05965944268228457e-1 + sc * (6.02200363391352887e-2 + 1.29050244454344842e-2 * sc)))))) /
    (1 + sc * (1.58117486714634672 + sc * (1.60144713247629644 + sc * (8.30040185836882436e-1 + sc * (3.53071863813401531e-1 + sc * (6.95901684131758475e-2 + 1.44197580643890011e-2 * sc))))))
  );
}

/**
 * RouterBench's cost-quality plane: what mixing single models reaches. Sending a share of the questions to
 * one model and the rest to another lands on the segment between their (dollars, accuracy) points, so the
 * best any mix of single models does at a given spend is the upper boundary of their convex hull, kept
 * non-decreasing (spending more never has to cost accuracy: leave the extra unspent). Answering nothing is
 * a choice too (no dollars, no accuracy): mixed with the cheapest model it reaches every point below that
 * model's, so a router cheaper than every model is not above the line for that alone. A router is worth
 * its name where it lands above that line. Test: test/unit/core/bench/eval/cost-quality-hull.test.ts.
 */

export interface CostQualityPoint {
  /** Dollars per question. */
  cost: number;
  accuracy: number;
}

/** Two accuracies closer than this are the same (sums of per-question means carry rounding). */
const EPS = 1e-9;

/** Answering no question: free, and never right. */
const NOTHING: CostQualityPoint = { cost: 0, accuracy: 0 };

/**
 * The hull's vertices, cheapest first: from the cheapest point (the most accurate among equally cheap
 * ones) up to the most accurate (the cheapest among equally accurate ones), each turn concave. A point
 * under the line from answering nothing to a dearer point is not on it.
 */
export function costQualityHull<P extends CostQualityPoint>(points: readonly P[]): P[] {
  const sorted = points.filter((p) => Number.isFinite(p.cost) && Number.isFinite(p.accuracy)).sort((a, b) => a.cost - b.cost || b.accuracy - a.accuracy);
  const hull: CostQualityPoint[] = [NOTHING];
  for (const p of sorted) {
    // Only a point more accurate than every cheaper one can be on a non-decreasing boundary.
    if (hull.length > 0 && p.accuracy <= hull[hull.length - 1].accuracy + EPS) continue;
    // Drop the last vertex while it lies on or under the segment from the one before to p.
    while (hull.length >= 2) {
      const [a, b] = [hull[hull.length - 2], hull[hull.length - 1]];
      const cross = (b.cost - a.cost) * (p.accuracy - a.accuracy) - (b.accuracy - a.accuracy) * (p.cost - a.cost);
      if (cross < -EPS) break;
      hull.pop();
    }
    hull.push(p);
  }
  return hull.filter((p): p is P => p !== NOTHING);
}

/**
 * The best accuracy a mix of the hull's models (and of answering nothing) reaches at `cost` dollars per
 * question: on the segment there, the most accurate vertex's beyond it.
 */
export function hullAccuracyAt(hull: readonly CostQualityPoint[], cost: number): number {
  const vertices = hull[0]?.cost > 0 ? [NOTHING, ...hull] : hull;
  if (vertices.length === 0 || cost < vertices[0].cost) return -Infinity;
  for (let i = 1; i < vertices.length; i++) {
    const [a, b] = [vertices[i - 1], vertices[i]];
    if (cost <= b.cost) return a.accuracy + ((b.accuracy - a.accuracy) * (cost - a.cost)) / (b.cost - a.cost);
  }
  return vertices[vertices.length - 1].accuracy;
}

/** Where a point lies against the hull: 'above' means more accurate than any mix of the single models at its dollars. */
export function sideOfHull(hull: readonly CostQualityPoint[], p: CostQualityPoint): 'above' | 'on' | 'below' {
  const best = hullAccuracyAt(hull, p.cost);
  return p.accuracy > best + EPS ? 'above' : p.accuracy < best - EPS ? 'below' : 'on';
}

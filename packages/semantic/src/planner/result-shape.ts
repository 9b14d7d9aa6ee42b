import {
  dimensionAnnotation,
  measureAnnotation,
  measureType,
  segmentAnnotation,
  timeDimensionAnnotation,
  type Annotation,
} from './annotation.js';
import type { LogicalQuery } from './logical.js';

/** How a result column maps back to the member names of the load response. */
export interface ResultColumn {
  readonly alias: string;
  readonly keys: readonly string[];
  readonly type: string;
  readonly kind: 'measure' | 'dimension' | 'timeDimension';
}

/** The columns of a logical query's SQL, in SELECT order, and the annotation of the load response. */
export function describeResult(logical: LogicalQuery): { columns: ResultColumn[]; annotation: Annotation } {
  const columns: ResultColumn[] = [];
  const annotation: Annotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  for (const dimension of logical.dimensions) {
    columns.push({ alias: dimension.alias, keys: [dimension.path], type: dimension.resolved.member.type, kind: 'dimension' });
    annotation.dimensions[dimension.path] = dimensionAnnotation(dimension.resolved);
  }
  for (const timeDimension of logical.timeDimensions) {
    const keys = timeDimension.alsoUnderPath ? [timeDimension.key, timeDimension.path] : [timeDimension.key];
    columns.push({ alias: timeDimension.alias, keys, type: 'time', kind: 'timeDimension' });
    annotation.timeDimensions[timeDimension.key] = timeDimensionAnnotation(timeDimension.resolved, timeDimension.granularity);
    if (timeDimension.alsoUnderPath) annotation.timeDimensions[timeDimension.path] = dimensionAnnotation(timeDimension.resolved);
  }
  for (const measure of logical.measures) {
    columns.push({ alias: measure.alias, keys: [measure.path], type: measureType(measure.resolved.member), kind: 'measure' });
    annotation.measures[measure.path] = measureAnnotation(logical.model, measure.resolved);
  }
  for (const segment of logical.segments) annotation.segments[segment.path] = segmentAnnotation(segment);
  return { columns, annotation };
}

/**
 * TRL and verl rows as Parquet (hyparquet-writer), with the nested types those engines expect when
 * `datasets` or pandas read the file: chat messages as list<struct<role, content>>, choices as
 * list<string>, reward_model and extra_info as structs. Lists use the standard three-level layout
 * (group (LIST) > repeated group list > element), as pyarrow writes it.
 */
import { parquetWriteFile } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import type { TrlRow, VerlRow } from './task-rows.ts';

const string = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });
const int32 = (name: string): SchemaElement => ({ name, type: 'INT32', repetition_type: 'REQUIRED' });
const struct = (name: string, fields: SchemaElement[][]): SchemaElement[] => [
  { name, repetition_type: 'REQUIRED', num_children: fields.length },
  ...fields.flat(),
];
const list = (name: string, element: SchemaElement[]): SchemaElement[] => [
  { name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...element,
];
const messages = (name: string) => list(name, struct('element', [[string('role')], [string('content')]]));
const strings = (name: string) => list(name, [string('element')]);

function write(file: string, columns: [name: string, schema: SchemaElement[]][], rows: object[]): void {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.flatMap(([, s]) => s)];
  const columnData = columns.map(([name]) => ({ name, data: rows.map((r) => (r as Record<string, unknown>)[name]) }));
  parquetWriteFile({ filename: file, columnData, schema, createdBy: 'baton export' });
}

export function writeTrlParquet(file: string, rows: TrlRow[]): void {
  write(
    file,
    [
      ['prompt', messages('prompt')],
      ['question', [string('question')]],
      ['answer', [string('answer')]],
      ['kind', [string('kind')]],
      ['choices', strings('choices')],
    ],
    rows,
  );
}

export function writeVerlParquet(file: string, rows: VerlRow[]): void {
  write(
    file,
    [
      ['data_source', [string('data_source')]],
      ['prompt', messages('prompt')],
      ['ability', [string('ability')]],
      ['reward_model', struct('reward_model', [[string('style')], [string('ground_truth')]])],
      [
        'extra_info',
        struct('extra_info', [[string('split')], [int32('index')], [string('question')], [string('kind')], strings('choices'), [string('item_id')]]),
      ],
    ],
    rows,
  );
}

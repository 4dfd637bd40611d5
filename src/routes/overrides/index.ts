/**
 * Screen-level overrides: where a screen of the spec differs from what the generic screens
 * draw from a description, a component here replaces that screen for that entity. It may
 * reuse the generic parts (ListScreen with its own `columns`, built from columnViews()).
 * Master data needs none: Make Popular and Add Question are columns of their descriptions.
 */
import type { ComponentType } from 'react';
import type { ScreenKind } from '../../contract/catalogue/entity-catalogue';
import type { EntityDescription } from '../../contract/entity';

export type ScreenOverride = ComponentType<{ entity: EntityDescription }>;

export const screenOverrides: Readonly<Record<string, Partial<Record<ScreenKind, ScreenOverride>>>> = {};

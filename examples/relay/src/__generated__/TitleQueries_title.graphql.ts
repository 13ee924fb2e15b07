/**
 * @generated SignedSource<<ac237c6e5d1573a224be3926bb0eb7fb>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import { ReaderFragment } from 'relay-runtime';
export type TitleStatus = "ABSORBED" | "AMALGAMATED" | "CANCELLED" | "CLOSED" | "DRAFT" | "REGISTERED" | "%future added value";
import { FragmentRefs } from "relay-runtime";
export type TitleQueries_title$data = {
  readonly id: string;
  readonly status: TitleStatus;
  readonly titleNumber: any;
  readonly " $fragmentType": "TitleQueries_title";
};
export type TitleQueries_title$key = {
  readonly " $data"?: TitleQueries_title$data;
  readonly " $fragmentSpreads": FragmentRefs<"TitleQueries_title">;
};

import TitleQueriesTitleRefetchQuery_graphql from './TitleQueriesTitleRefetchQuery.graphql';

const node: ReaderFragment = {
  "argumentDefinitions": [],
  "kind": "Fragment",
  "metadata": {
    "refetch": {
      "connection": null,
      "fragmentPathInResult": [
        "node"
      ],
      "operation": TitleQueriesTitleRefetchQuery_graphql,
      "identifierInfo": {
        "identifierField": "id",
        "identifierQueryVariableName": "id"
      }
    }
  },
  "name": "TitleQueries_title",
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "id",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "titleNumber",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "status",
      "storageKey": null
    }
  ],
  "type": "Title",
  "abstractKey": null
};

(node as any).hash = "71461b4c0bea8a34449f16a62fc66c06";

export default node;

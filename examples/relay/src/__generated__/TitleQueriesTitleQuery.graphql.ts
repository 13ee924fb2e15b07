/**
 * @generated SignedSource<<5c1d5b751ba5f3d2d0173c4b3ddfe6f1>>
 * @relayHash 13bb79e01e64b5a7e5ba2400e8396d74
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

// @relayRequestID 97bffab07a5681901bd2c37c276fba6ddddbdba0423b2a802508407cf6cdbc12

import { ConcreteRequest } from 'relay-runtime';
import { FragmentRefs } from "relay-runtime";
export type TitleQueriesTitleQuery$variables = {
  titleNumber: any;
};
export type TitleQueriesTitleQuery$data = {
  readonly title: {
    readonly " $fragmentSpreads": FragmentRefs<"TitleQueries_title">;
  } | null | undefined;
};
export type TitleQueriesTitleQuery = {
  response: TitleQueriesTitleQuery$data;
  variables: TitleQueriesTitleQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "titleNumber"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "titleNumber",
    "variableName": "titleNumber"
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "TitleQueriesTitleQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Title",
        "kind": "LinkedField",
        "name": "title",
        "plural": false,
        "selections": [
          {
            "args": null,
            "kind": "FragmentSpread",
            "name": "TitleQueries_title"
          }
        ],
        "storageKey": null
      }
    ],
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "TitleQueriesTitleQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Title",
        "kind": "LinkedField",
        "name": "title",
        "plural": false,
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
        "storageKey": null
      }
    ]
  },
  "params": {
    "id": "97bffab07a5681901bd2c37c276fba6ddddbdba0423b2a802508407cf6cdbc12",
    "metadata": {},
    "name": "TitleQueriesTitleQuery",
    "operationKind": "query",
    "text": null
  }
};
})();

(node as any).hash = "a43f7d512965f457db5a67b54fd4b759";

export default node;

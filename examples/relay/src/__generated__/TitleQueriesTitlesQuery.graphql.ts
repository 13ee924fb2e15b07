/**
 * @generated SignedSource<<64b84c2bb156734f27336fbd916898aa>>
 * @relayHash 6892f8cbef50d99bb39f98502619ccb8
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

// @relayRequestID 9d135dd0fe3b51fff6c92d8e38d1e913d18cb763e49779bf6203bb02b8e5191d

import { ConcreteRequest } from 'relay-runtime';
import { FragmentRefs } from "relay-runtime";
export type TitleQueriesTitlesQuery$variables = {
  titleNumbers: ReadonlyArray<any>;
};
export type TitleQueriesTitlesQuery$data = {
  readonly titles: ReadonlyArray<{
    readonly " $fragmentSpreads": FragmentRefs<"TitleQueries_title">;
  } | null | undefined>;
};
export type TitleQueriesTitlesQuery = {
  response: TitleQueriesTitlesQuery$data;
  variables: TitleQueriesTitlesQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "titleNumbers"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "titleNumbers",
    "variableName": "titleNumbers"
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "TitleQueriesTitlesQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Title",
        "kind": "LinkedField",
        "name": "titles",
        "plural": true,
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
    "name": "TitleQueriesTitlesQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Title",
        "kind": "LinkedField",
        "name": "titles",
        "plural": true,
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
    "id": "9d135dd0fe3b51fff6c92d8e38d1e913d18cb763e49779bf6203bb02b8e5191d",
    "metadata": {},
    "name": "TitleQueriesTitlesQuery",
    "operationKind": "query",
    "text": null
  }
};
})();

(node as any).hash = "642c218170e89329d3baef2f8571cb97";

export default node;

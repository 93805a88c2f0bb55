//! Trust between services: every gRPC call must carry a token signed with the shared key;
//! the store and user come from it, never from bare metadata.

use std::sync::Arc;

use bo_kit::auth::Keys;
use bo_kit::grpc::CallCtx;
use bo_proto::wms::v1 as pb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use tonic::Code;

use crate::helpers::{config_in, TestApp};

async fn refused(
    client: &mut WmsServiceClient<tonic::transport::Channel>,
    req: tonic::Request<pb::ListWarehousesRequest>,
) {
    let e = client.list_warehouses(req).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated, "{e:?}");
}

#[tokio::test]
async fn calls_without_a_valid_token_are_refused_remote_and_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config_in(&dir);
    cfg.grpc.addr = "127.0.0.1:0".into();
    cfg.grpc.serve = Some(true);
    let db_url = cfg.database_url("stores");
    let app = TestApp::launch(cfg, dir, Vec::new(), db_url, None).await;
    let addr = app.grpc_addr().expect("gRPC served");
    let mut remote = WmsServiceClient::connect(format!("http://{addr}")).await.unwrap();

    // Forged metadata, no token.
    let mut forged = tonic::Request::new(pb::ListWarehousesRequest {});
    forged.metadata_mut().insert("bo-store-id", "1".parse().unwrap());
    forged.metadata_mut().insert("bo-user-id", "1".parse().unwrap());
    refused(&mut remote, forged).await;
    // A token signed with another key.
    let stranger = Keys::new(&[9u8; 32], 60).unwrap();
    let forged = CallCtx::with_token(1, 1, stranger.service_token("wms", 1, 1).unwrap());
    refused(&mut remote, forged.request(pb::ListWarehousesRequest {})).await;
    // Not a token at all, and a lower-case scheme with garbage.
    let mut junk = tonic::Request::new(pb::ListWarehousesRequest {});
    junk.metadata_mut().insert("authorization", "bearer not.a.token".parse().unwrap());
    refused(&mut remote, junk).await;

    // A user's store token is the gateway's to check (session, membership and its version):
    // the service port refuses it, valid or not, so a revoked member cannot go around.
    let store_token = app.store_token("owner@example.com", "demo1234", app.demo_store).await;
    let mut direct = tonic::Request::new(pb::ListWarehousesRequest {});
    direct.metadata_mut().insert("authorization", format!("Bearer {store_token}").parse().unwrap());
    refused(&mut remote, direct).await;

    // A call token of the shared key passes, lower-case scheme too, and its store is the one used.
    let token = app.keys().call_token(1, "sid", app.demo_store, "owner", &[]).unwrap();
    let mut ok = tonic::Request::new(pb::ListWarehousesRequest {});
    ok.metadata_mut().insert("authorization", format!("bearer {token}").parse().unwrap());
    ok.metadata_mut().insert("bo-store-id", "999".parse().unwrap());
    for _ in 0..100 {
        let r = remote.list_warehouses(ok_clone(&ok)).await.unwrap().into_inner();
        if !r.warehouses.is_empty() {
            assert_eq!(r.warehouses[0].store_id, app.demo_store, "the store comes from the token");
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // In-process channels check the same way.
    let mut local = app.clients().client(WmsServiceClient::new).unwrap();
    let e =
        local.list_warehouses(CallCtx::new(app.demo_store, 1).request(pb::ListWarehousesRequest {})).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    app.stop().await;
}

#[tokio::test]
async fn an_expired_service_token_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config_in(&dir);
    cfg.grpc.addr = "127.0.0.1:0".into();
    cfg.grpc.serve = Some(true);
    cfg.auth.jwt_secret = bo_kit::config::Secret::new("a-shared-secret-of-at-least-32-bytes!");
    let db_url = cfg.database_url("stores");
    let app = TestApp::launch(cfg, dir, Vec::new(), db_url, None).await;
    let addr = app.grpc_addr().unwrap();
    let mut remote = WmsServiceClient::connect(format!("http://{addr}")).await.unwrap();
    let claims = bo_kit::auth::Claims {
        sub: "0".into(),
        aud: bo_kit::auth::AUD_SERVICE.into(),
        iss: "backoffice".into(),
        iat: 1_000,
        exp: 2_000,
        sid: "service:x".into(),
        store: Some(1),
        perm: Some("service".into()),
        role: None,
        perms: vec![],
        mv: None,
    };
    let old = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(b"a-shared-secret-of-at-least-32-bytes!"),
    )
    .unwrap();
    refused(&mut remote, CallCtx::with_token(1, 0, old).request(pb::ListWarehousesRequest {})).await;
    let keys = Arc::new(Keys::new(b"a-shared-secret-of-at-least-32-bytes!", 60).unwrap());
    let fresh = bo_kit::grpc::ServiceIdentity::new(keys, "test").acting(1, 0);
    assert!(remote.list_warehouses(fresh.request(pb::ListWarehousesRequest {})).await.is_ok());
    app.stop().await;
}

fn ok_clone(r: &tonic::Request<pb::ListWarehousesRequest>) -> tonic::Request<pb::ListWarehousesRequest> {
    let mut c = tonic::Request::new(pb::ListWarehousesRequest {});
    *c.metadata_mut() = r.metadata().clone();
    c
}
